/**
 * Appeals (docs/decisions/0019-appeals.md): the prescriber proves who they are with the NPI and the access key
 * the pharmacy sent (stored hashed, expiring) — or, signed in to the portal, by being the prescription's
 * prescriber — and gets a short-lived token for that one appeal; with it they read the appeal, save the draft,
 * attach, read back and remove files, and submit.
 */
import {
  APPEAL_AUTH_FAILED,
  APPEAL_LINK_EXPIRED,
  APPEAL_LOCKED,
  APPEAL_PREPARE_ONLY,
  APPEAL_SUBMITTED,
  type Appeal,
  type AppealAuthRequest,
  type AppealAuthResponse,
  type AppealDraft,
  type AppealPortalAuthRequest,
  appealSubmitProblems,
  EVENT_TYPES,
  mayChangePatientData,
} from '@hcp/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { recordDecision } from '../../lib/decisions.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { FileStore } from '../../lib/file-store/index.ts';
import { clinicalAccessOf } from '../../lib/office-scope.ts';
import { RESOLVERS } from '../../lib/reach/resolvers.ts';
import { isSessionLive, type SessionRef } from '../../lib/sessions.ts';
import { type AppealContext, createAppealAttachments } from './attachments.ts';
import { appealOf } from './mapping.ts';
import * as repo from './repository.ts';

export type { AppealContext } from './attachments.ts';

const ISSUER = 'hcp-portal';
const AUDIENCE = 'hcp-portal-appeal';
const TOKEN_SECONDS = 30 * 60;
const LOCK_AFTER = 5;
const LOCK_SECONDS = 15 * 60;

export function createAppealsService(deps: { db: Database; signingKey: string; now: () => Date; store: FileStore }) {
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

  /**
   * `prepareOnly`: the practice's people preparing it for the prescriber (issue 23): no attestation, no submit.
   * `session`: issued to a signed-in user, the token is bound to their session and reach (issue 42): it ends when
   * the session does (logout, reuse, password change, account disabled, role or practice removed). A link-holder's
   * token (NPI + key, no account) keeps its own expiry.
   */
  async function issueToken(appealId: string, prepareOnly = false, session?: SessionRef) {
    const now = Math.floor(deps.now().getTime() / 1000);
    const token = await new SignJWT({
      scope: 'appeal',
      ...(prepareOnly ? { prep: true } : {}),
      ...(session ? { uid: session.userId, fid: session.familyId } : {}),
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(appealId)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + TOKEN_SECONDS)
      .sign(key);
    return {
      token,
      expiresAt: new Date((now + TOKEN_SECONDS) * 1000).toISOString(),
      ...(prepareOnly ? { prepareOnly: true } : {}),
    };
  }

  const appealInReach = async (session: SessionRef, appealId: string) =>
    (await RESOLVERS.appeal(db, session, [appealId])).length === 1;

  /** The appeal a token opens; a missing, bad, expired or other appeal's token is 404 (ids cannot be probed). */
  async function appealFor(token: string | undefined, appealId: string): Promise<repo.AppealRow> {
    if (!token) throw notFound('Appeal');
    let prepareOnly = false;
    let session: SessionRef | null = null;
    try {
      const { payload } = await jwtVerify(token, key, {
        issuer: ISSUER,
        audience: AUDIENCE,
        algorithms: ['HS256'],
        currentDate: deps.now(),
      });
      if (payload.sub !== appealId) throw notFound('Appeal');
      prepareOnly = payload.prep === true;
      if (payload.fid !== undefined || payload.uid !== undefined) {
        session = { userId: String(payload.uid), familyId: String(payload.fid) };
      }
    } catch (error) {
      if (error instanceof errors.JOSEError) throw notFound('Appeal');
      throw error;
    }
    // A portal-issued token lives only with its session and while the appeal is within its holder's reach.
    if (session && !((await isSessionLive(db, session)) && (await appealInReach(session, appealId)))) {
      throw notFound('Appeal');
    }
    const row = await repo.findById(db, appealId);
    if (!row) throw notFound('Appeal');
    return { ...row, prepareOnly };
  }

  const attachments = createAppealAttachments({ db, store: deps.store, appealFor });

  return {
    ...attachments,

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
      return { ...(await issueToken(row.id)), appeal: appealOf(row, await repo.filesOf(db, row.id)) };
    },

    /**
     * A signed-in prescriber opens their own prescription's appeal without the key; the practice's other people
     * (staff, colleagues) open it to prepare it for them (issue 23: no attestation, no submit); anyone else 404.
     */
    async authenticateInPortal(user: SessionRef & AppealContext, input: AppealPortalAuthRequest): Promise<AppealAuthResponse> {
      let row = await repo.findForPrescriber(db, user.userId, input.prescriptionId);
      const prepareOnly = !row;
      if (!row && mayChangePatientData(await clinicalAccessOf(db, user.userId))) {
        row = await repo.findForPractice(db, user.userId, input.prescriptionId);
      }
      if (!row) throw notFound('Appeal');
      await writeAudit(db, {
        actorUserId: user.userId,
        action: 'appeal.auth.portal',
        entityType: 'appeal',
        entityId: row.id,
        requestId: user.requestId,
        ip: user.ip,
        details: prepareOnly ? { prepareOnly } : {},
      });
      const session = { userId: user.userId, familyId: user.familyId };
      return { ...(await issueToken(row.id, prepareOnly, session)), appeal: appealOf(row, await repo.filesOf(db, row.id)) };
    },

    async read(token: string | undefined, appealId: string, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      await audit(ctx, 'appeal.read', appealId);
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    async saveDraft(token: string | undefined, appealId: string, draft: AppealDraft, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      // The attestation is the prescriber's: a draft someone prepares for them (again) waits for it to be given anew.
      const saved = row.prepareOnly ? { ...draft, attestation: false } : draft;
      await repo.saveDraft(db, appealId, saved);
      await audit(ctx, 'appeal.save', appealId, row.prepareOnly ? { prepareOnly: true } : {});
      return { ...appealOf(row, await repo.filesOf(db, appealId)), draft: saved };
    },

    /** Checks completeness, locks the appeal, clears the HCP-action flag, tells the pharmacy; a second submit is 409. */
    async submit(token: string | undefined, appealId: string, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      const files = await repo.filesOf(db, appealId);
      const current = appealOf(row, files);
      if (current.submittedAt) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      if (row.prepareOnly) {
        await audit(ctx, 'appeal.submit.refused', appealId, { prepareOnly: true });
        throw new AppError('FORBIDDEN', APPEAL_PREPARE_ONLY);
      }
      const problems = appealSubmitProblems(current);
      if (problems.length > 0) {
        throw new AppError(
          'VALIDATION_FAILED',
          'The appeal is not complete yet.',
          problems.map((p) => ({ path: `appeal.${p.path}`, message: p.message })),
        );
      }
      const at = deps.now();
      await db.transaction(async (tx) => {
        const submitted = await repo.markSubmitted(tx, appealId, at);
        if (!submitted) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
        await repo.clearHcpAction(tx, submitted.prescriptionId);
        await recordDecision(tx, {
          prescriptionId: submitted.prescriptionId,
          type: EVENT_TYPES.appealSubmitted,
          actorUserId: null,
          requestId: ctx.requestId,
          data: { appealId, attachments: files.map((f) => f.slot) },
          message: {
            channel: 'fax',
            recipient: 'provider-pharmacy',
            payload: { kind: 'appeal-submitted', appealId, draft: current.draft, attachments: files.map((f) => f.storedName) },
          },
        });
        await writeAudit(tx, {
          actorUserId: null,
          action: 'appeal.submit',
          entityType: 'appeal',
          entityId: appealId,
          requestId: ctx.requestId,
          ip: ctx.ip,
        });
      });
      return appealOf((await repo.findById(db, appealId)) as repo.AppealRow, files);
    },
  };
}
export type AppealsService = ReturnType<typeof createAppealsService>;
