/**
 * The appeal a prescriber opened in this tab, kept in the stored client keys of spec §3 (session storage, so
 * it dies with the tab): appeals data (the appeal id, its short-lived token and any unsaved draft), appeals key
 * and appeals NPI. A reload therefore loses nothing: the token is reused, or renewed with the stored NPI and
 * key (or, for a signed-in prescriber, their portal session) when it is about to expire.
 */
import {
  APPEAL_TOKEN_HEADER,
  type AppealAuthResponse,
  type AppealDraft,
  appealAuthResponseSchema,
  appealDraftSchema,
  appealsApiPaths,
} from '@hcp/contract';
import { z } from 'zod';
import { ApiError, api } from '../../../lib/api-client.ts';
import { readSession, storage } from '../../../lib/storage.ts';

const storedSchema = z.object({
  appealId: z.string(),
  token: z.string(),
  expiresAt: z.string(),
  /** Opened from the portal (no key): renewed through the signed-in prescriber's session. */
  prescriptionId: z.string().optional(),
  /** Opened to prepare it for the prescriber (issue 23): no attestation, no submit. */
  prepareOnly: z.boolean().optional(),
  /** What the form holds that the server may not have yet. */
  draft: appealDraftSchema.optional(),
});
export type AppealSession = z.infer<typeof storedSchema>;

/** Renew a token this long before it expires, so a call never goes out with one about to lapse. */
const RENEW_MARGIN_MS = 60_000;

export function readAppealSession(): AppealSession | null {
  const raw = storage.get('appealsData');
  if (!raw) return null;
  try {
    const parsed = storedSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function readAppealCredentials(): { npi: string; key: string } | null {
  const npi = storage.get('appealsNpi');
  const key = storage.get('appealsKey');
  return npi && key ? { npi, key } : null;
}

function store(session: AppealSession) {
  storage.set('appealsData', JSON.stringify(session));
}

/** Keeps the answer of a sign-in (by key or from the portal) as this tab's appeal; a draft of another appeal goes. */
export function rememberAppeal(answer: AppealAuthResponse, extra: { prescriptionId?: string } = {}): AppealSession {
  const previous = readAppealSession();
  const session: AppealSession = {
    appealId: answer.appeal.id,
    token: answer.token,
    expiresAt: answer.expiresAt,
    ...(extra.prescriptionId ? { prescriptionId: extra.prescriptionId } : {}),
    ...(answer.prepareOnly ? { prepareOnly: true } : {}),
    ...(previous?.appealId === answer.appeal.id && previous.draft ? { draft: previous.draft } : {}),
  };
  store(session);
  return session;
}

export function rememberCredentials(npi: string, key: string) {
  storage.set('appealsNpi', npi);
  storage.set('appealsKey', key);
}

/** The form's unsaved values, kept so a reload restores them; cleared once the server has them. */
export function keepLocalDraft(appealId: string, draft: AppealDraft | undefined) {
  const session = readAppealSession();
  if (!session || session.appealId !== appealId) return;
  const { draft: _old, ...rest } = session;
  store(draft ? { ...rest, draft } : rest);
}

export function forgetAppeal() {
  storage.remove('appealsData');
  storage.remove('appealsKey');
  storage.remove('appealsNpi');
}

/** POST appeal-auth with the NPI and key from the pharmacy's link. */
export const authenticateAppeal = (input: { npi: string; key: string }) =>
  api.request(appealsApiPaths.appealAuth, { method: 'POST', auth: false, body: input, schema: appealAuthResponseSchema });

/** Our addition: the signed-in prescriber opens their own prescription's appeal without the key. */
export const authenticateAppealInPortal = (userId: string, prescriptionId: string) =>
  api.request(appealsApiPaths.userAppealAuth(userId), {
    method: 'POST',
    body: { prescriptionId },
    schema: appealAuthResponseSchema,
  });

let renewing: Promise<AppealSession> | null = null;

/** The appeal token header for a call, renewing the token first when it is (nearly) expired. */
export async function appealHeaders(appealId: string): Promise<Record<string, string>> {
  let session = readAppealSession();
  if (!session || session.appealId !== appealId) throw lostAppeal();
  if (new Date(session.expiresAt).getTime() - Date.now() < RENEW_MARGIN_MS) {
    renewing ??= renew(session).finally(() => {
      renewing = null;
    });
    session = await renewing;
  }
  return { [APPEAL_TOKEN_HEADER]: session.token };
}

async function renew(session: AppealSession): Promise<AppealSession> {
  const portal = readSession();
  if (session.prescriptionId && portal) {
    return rememberAppeal(await authenticateAppealInPortal(portal.userId, session.prescriptionId), {
      prescriptionId: session.prescriptionId,
    });
  }
  const credentials = readAppealCredentials();
  if (!credentials) throw lostAppeal();
  return rememberAppeal(await authenticateAppeal(credentials));
}

const lostAppeal = () =>
  new ApiError(
    { code: 'NOT_FOUND', status: 404, message: 'Open the appeal again with the link from the pharmacy.', details: [] },
    '',
  );
