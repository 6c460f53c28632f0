/**
 * Appeals (docs/decisions/0019-appeals.md): the prescriber proves who they are with the NPI and the access key
 * the pharmacy sent (stored hashed, expiring) — or, signed in to the portal, by being the prescription's
 * prescriber — and gets a short-lived token for that one appeal; with it they read the appeal, save the draft,
 * attach, read back and remove files, and submit.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  APPEAL_AUTH_FAILED,
  APPEAL_FILE_TOO_LARGE,
  APPEAL_FILE_WRONG_TYPE,
  APPEAL_LINK_EXPIRED,
  APPEAL_LOCKED,
  APPEAL_SUBMITTED,
  APPEAL_TOTAL_MAX_BYTES,
  APPEAL_TOTAL_TOO_LARGE,
  type Appeal,
  type AppealAuthRequest,
  type AppealAuthResponse,
  type AppealDraft,
  type AppealFile,
  type AppealPortalAuthRequest,
  type AppealSlot,
  appealDraftSchema,
  appealSubmitProblems,
  capitalizeName,
  EVENT_TYPES,
  sniffAttachmentType,
} from '@hcp/contract';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { recordDecision } from '../../lib/decisions.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import * as repo from './repository.ts';

const ISSUER = 'hcp-portal';
const AUDIENCE = 'hcp-portal-appeal';
const TOKEN_SECONDS = 30 * 60;
const LOCK_AFTER = 5;
const LOCK_SECONDS = 15 * 60;
/** An upload writes its file before its row commits; a file younger than this may still be on its way in. */
const ORPHAN_GRACE_MS = 60 * 60 * 1000;

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

type FileRow = Awaited<ReturnType<typeof repo.filesOf>>[number];
const fileOf = (f: FileRow): AppealFile => ({
  slot: f.slot as AppealSlot,
  originalName: f.originalName,
  contentType: f.contentType,
  sizeBytes: f.sizeBytes,
  uploadedAt: f.createdAt.toISOString(),
});

/** One uploaded file as the route read it (at most the per-file limit; `truncated` when it was longer). */
export interface IncomingFile {
  slot: AppealSlot;
  filename: string;
  buffer: Buffer;
  truncated: boolean;
}

function appealOf(row: repo.AppealRow, files: FileRow[] = []): Appeal {
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
    files: files.map(fileOf),
    submittedAt: iso(row.submitted_at),
  };
}

export interface AppealContext {
  requestId: string;
  ip: string | null;
}

export function createAppealsService(deps: { db: Database; signingKey: string; now: () => Date; uploadDir: string }) {
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
      return { ...(await issueToken(row.id)), appeal: appealOf(row, await repo.filesOf(db, row.id)) };
    },

    /** A signed-in prescriber opens their own prescription's appeal without the key; anyone else 404. */
    async authenticateInPortal(
      user: { userId: string } & AppealContext,
      input: AppealPortalAuthRequest,
    ): Promise<AppealAuthResponse> {
      const row = await repo.findForPrescriber(db, user.userId, input.prescriptionId);
      if (!row) throw notFound('Appeal');
      await writeAudit(db, {
        actorUserId: user.userId,
        action: 'appeal.auth.portal',
        entityType: 'appeal',
        entityId: row.id,
        requestId: user.requestId,
        ip: user.ip,
      });
      return { ...(await issueToken(row.id)), appeal: appealOf(row, await repo.filesOf(db, row.id)) };
    },

    /** An attachment back to whoever holds this appeal's token (the prescriber by key, or by the portal). */
    async download(token: string | undefined, appealId: string, slot: AppealSlot, ctx: AppealContext) {
      await appealFor(token, appealId);
      const file = await repo.fileInSlot(db, appealId, slot);
      if (!file) throw notFound('Attachment');
      const content = await readFile(path.join(deps.uploadDir, file.storedName)).catch(() => null);
      if (!content) throw notFound('Attachment');
      await audit(ctx, 'appeal.file.read', appealId, { slot });
      return { name: file.originalName, contentType: file.contentType, content };
    },

    /** Empties a slot (nothing there is fine: the slot is empty either way); a submitted appeal is 409. */
    async removeFile(token: string | undefined, appealId: string, slot: AppealSlot, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      const removed = await db.transaction(async (tx) => {
        const storedName = await repo.removeFile(tx, appealId, slot);
        if (storedName) {
          await writeAudit(tx, {
            actorUserId: null,
            action: 'appeal.file.remove',
            entityType: 'appeal',
            entityId: appealId,
            requestId: ctx.requestId,
            ip: ctx.ip,
            details: { slot },
          });
        }
        return storedName;
      });
      if (removed) await unlink(path.join(deps.uploadDir, removed)).catch(() => undefined);
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    async read(token: string | undefined, appealId: string, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      await audit(ctx, 'appeal.read', appealId);
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    async saveDraft(token: string | undefined, appealId: string, draft: AppealDraft, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      await repo.saveDraft(db, appealId, draft);
      await audit(ctx, 'appeal.save', appealId);
      return { ...appealOf(row, await repo.filesOf(db, appealId)), draft };
    },

    /**
     * Puts each file in its slot (replacing that slot's earlier file). Checked before anything is kept: size
     * per file and per appeal, and the type by content. Files live under generated names outside any served
     * folder; a replaced file is removed once the new one is recorded.
     */
    async upload(token: string | undefined, appealId: string, files: IncomingFile[], ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      if (files.length === 0) throw new AppError('VALIDATION_FAILED', 'Choose a file to attach.');
      for (const file of files) {
        const path_ = `body.${file.slot}`;
        if (file.truncated)
          throw new AppError('PAYLOAD_TOO_LARGE', APPEAL_FILE_TOO_LARGE, [{ path: path_, message: APPEAL_FILE_TOO_LARGE }]);
        if (!sniffAttachmentType(file.buffer)) {
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', APPEAL_FILE_WRONG_TYPE, [
            { path: path_, message: APPEAL_FILE_WRONG_TYPE },
          ]);
        }
      }
      const existing = await repo.filesOf(db, appealId);
      const replaced = new Set(files.map((f) => f.slot));
      const total =
        existing.filter((f) => !replaced.has(f.slot as AppealSlot)).reduce((n, f) => n + f.sizeBytes, 0) +
        files.reduce((n, f) => n + f.buffer.length, 0);
      if (total > APPEAL_TOTAL_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', APPEAL_TOTAL_TOO_LARGE);

      await mkdir(deps.uploadDir, { recursive: true, mode: 0o700 });
      const written: string[] = [];
      try {
        const stored = await Promise.all(
          files.map(async (file) => {
            const storedName = randomUUID();
            await writeFile(path.join(deps.uploadDir, storedName), file.buffer, { mode: 0o600 });
            written.push(storedName);
            return { file, storedName };
          }),
        );
        const previous = await db.transaction(async (tx) => {
          const old: string[] = [];
          for (const { file, storedName } of stored) {
            const before = await repo.putFile(tx, {
              appealId,
              slot: file.slot,
              originalName: path.basename(file.filename).slice(0, 200) || 'attachment',
              storedName,
              contentType: sniffAttachmentType(file.buffer) as string,
              sizeBytes: file.buffer.length,
            });
            if (before) old.push(before);
          }
          await writeAudit(tx, {
            actorUserId: null,
            action: 'appeal.upload',
            entityType: 'appeal',
            entityId: appealId,
            requestId: ctx.requestId,
            ip: ctx.ip,
            details: { slots: files.map((f) => f.slot) },
          });
          return old;
        });
        await Promise.all(previous.map((name) => unlink(path.join(deps.uploadDir, name)).catch(() => undefined)));
      } catch (error) {
        // Nothing half-kept: files written for a failed upload go again.
        await Promise.all(written.map((name) => unlink(path.join(deps.uploadDir, name)).catch(() => undefined)));
        throw error;
      }
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    /**
     * Housekeeping: removes files in the upload folder no appeal refers to (left by a crash between writing a
     * file and committing its row), once they are older than the grace period. Idempotent; any instance may run it.
     */
    async sweepOrphanFiles(now: Date): Promise<{ removed: number }> {
      const names = await readdir(deps.uploadDir).catch(() => [] as string[]);
      let removed = 0;
      for (let i = 0; i < names.length; i += 500) {
        const batch = names.slice(i, i + 500);
        const kept = await repo.referencedNames(db, batch);
        for (const name of batch) {
          if (kept.has(name)) continue;
          const file = path.join(deps.uploadDir, name);
          const info = await stat(file).catch(() => null);
          if (!info?.isFile() || now.getTime() - info.mtimeMs < ORPHAN_GRACE_MS) continue;
          await unlink(file).catch(() => undefined);
          removed += 1;
        }
      }
      return { removed };
    },

    /** Checks completeness, locks the appeal, clears the HCP-action flag, tells the pharmacy; a second submit is 409. */
    async submit(token: string | undefined, appealId: string, ctx: AppealContext): Promise<Appeal> {
      const row = await appealFor(token, appealId);
      const files = await repo.filesOf(db, appealId);
      const current = appealOf(row, files);
      if (current.submittedAt) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
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
