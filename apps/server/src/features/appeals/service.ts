/**
 * Appeals, first slice (docs/decisions/0019-appeals.md): the prescriber proves who they are with the NPI and
 * the access key the pharmacy sent (stored hashed, expiring), gets a short-lived token for that one appeal,
 * reads it and saves the draft. Uploads and submit come next.
 */
import {
  APPEAL_AUTH_FAILED,
  APPEAL_LINK_EXPIRED,
  APPEAL_LOCKED,
  APPEAL_SUBMITTED,
  type Appeal,
  type AppealAuthRequest,
  type AppealAuthResponse,
  type AppealDraft,
  appealDraftSchema,
  capitalizeName,
} from '@hcp/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import * as repo from './repository.ts';

const ISSUER = 'hcp-portal';
const AUDIENCE = 'hcp-portal-appeal';
const TOKEN_SECONDS = 30 * 60;
const LOCK_AFTER = 5;
const LOCK_SECONDS = 15 * 60;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function appealOf(row: repo.AppealRow): Appeal {
  const draft = appealDraftSchema.safeParse(row.draft ?? {});
  return {
    id: row.id,
    status: row.status,
    patientName: `${capitalizeName(row.patient_first_name)} ${capitalizeName(row.patient_last_name)}`,
    patientDob: row.patient_dob,
    drugName: row.drug_name,
    strength: row.strength,
    payer: row.payer,
    denialReason: row.denial_reason,
    denialDate: row.denial_date,
    whatIsNeeded: row.what_is_needed,
    clinicalNotesRequired: row.clinical_notes_required,
    prescriberName: `${row.prescriber_first_name} ${row.prescriber_last_name}`,
    draft: draft.success ? draft.data : appealDraftSchema.parse({}),
    submittedAt: iso(row.submitted_at),
  };
}

export interface AppealContext {
  requestId: string;
  ip: string | null;
}

export function createAppealsService(deps: { db: Database; signingKey: string; now: () => Date }) {
  const { db } = deps;
  const key = new TextEncoder().encode(deps.signingKey);
  const audit = (ctx: AppealContext, action: string, appealId: string | null, details: Record<string, unknown> = {}) =>
    writeAudit(db, {
      actorUserId: null,
      action,
      entityType: 'appeal',
      entityId: appealId,
      requestId: ctx.requestId,
      ip: ctx.ip,
      details,
    });

  async function issueToken(appealId: string) {
    const now = Math.floor(deps.now().getTime() / 1000);
    const token = await new SignJWT({ scope: 'appeal' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(appealId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_SECONDS)
      .sign(key);
    return { token, expiresAt: new Date((now + TOKEN_SECONDS) * 1000).toISOString() };
  }

  /** The appeal a token opens; a missing, bad, expired or other appeal's token is 404 (ids cannot be probed). */
  async function appealFor(token: string | undefined, appealId: string): Promise<repo.AppealRow> {
    if (!token) throw notFound('Appeal');
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: deps.now(),
      });
      if (payload.sub !== appealId) throw notFound('Appeal');
    } catch (error) {
      if (error instanceof errors.JOSEError) throw notFound('Appeal');
      throw error;
    }
    const row = await repo.findById(db, appealId);
    if (!row) throw notFound('Appeal');
    return row;
  }

  return {
    async authenticate(input: AppealAuthRequest, ctx: AppealContext): Promise<AppealAuthResponse> {
      const row = await repo.findByKeyHash(db, sha256(input.key.trim().toUpperCase()));
      const now = deps.now();
      if (!row) {
        await audit(ctx, 'appeal.auth.failure', null, { reason: 'unknown-key' });
        throw new AppError('UNAUTHORIZED', APPEAL_AUTH_FAILED);
      }
      if (row.locked_until && new Date(row.locked_until) > now) {
        const retryAfter = Math.ceil((new Date(row.locked_until).getTime() - now.getTime()) / 1000);
        throw new AppError('RATE_LIMITED', APPEAL_LOCKED, [], { 'retry-after': String(retryAfter) });
      }
      if (row.npi !== input.npi) {
        await repo.recordFailedAttempt(db, row.id, LOCK_AFTER, new Date(now.getTime() + LOCK_SECONDS * 1000));
        await audit(ctx, 'appeal.auth.failure', row.id, { reason: 'npi' });
        throw new AppError('UNAUTHORIZED', APPEAL_AUTH_FAILED);
      }
      if (!row.access_key_expires_at || new Date(row.access_key_expires_at) <= now) {
        await audit(ctx, 'appeal.auth.expired', row.id);
        throw new AppError('GONE', APPEAL_LINK_EXPIRED);
      }
      if (row.failed_attempts > 0) await repo.resetAttempts(db, row.id);
      await audit(ctx, 'appeal.auth.success', row.id);
      return { ...(await issueToken(row.id)), appeal: appealOf(row) };
    },

    async read(token: string | undefined, appealId: string, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      await audit(ctx, 'appeal.read', appealId);
      return appealOf(row);
    },

    async saveDraft(token: string | undefined, appealId: string, draft: AppealDraft, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      await repo.saveDraft(db, appealId, draft);
      await audit(ctx, 'appeal.save', appealId);
      return { ...appealOf(row), draft };
    },
  };
}
export type AppealsService = ReturnType<typeof createAppealsService>;
