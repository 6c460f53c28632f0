/**
 * An appeal's attachments: upload into slots, read back, remove, and the orphan sweep. Content goes straight from
 * the request into the file store (lib/file-store) and back out of it, checked on the way in (type by content, size
 * per file and per appeal), so no instance holds a whole file and every instance reads what any other stored.
 * A store object becomes an attachment only when its row commits; until then, and after a failure, it is removed,
 * and anything a crash left between the two is swept by housekeeping once it is older than ORPHAN_GRACE_MS.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  APPEAL_FILE_TOO_LARGE,
  APPEAL_FILE_WRONG_TYPE,
  APPEAL_SLOTS,
  APPEAL_SUBMITTED,
  APPEAL_TOTAL_MAX_BYTES,
  APPEAL_TOTAL_TOO_LARGE,
  type Appeal,
  type AppealSlot,
  type AttachmentType,
  attachmentSniffer,
  type EarlierAppealFile,
  type ReuseAppealFile,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { FileStore } from '../../lib/file-store/index.ts';
import { appealOf } from './mapping.ts';
import * as repo from './repository.ts';

/** An upload's object is stored before its row commits; one younger than this may still be on its way in. */
export const ORPHAN_GRACE_MS = 60 * 60 * 1000;

export interface AppealContext {
  requestId: string;
  ip: string | null;
}

/** One file part of a multipart request, as it arrives. `truncated()` is true, once read, when it was longer than the per-file limit. */
export interface IncomingFile {
  field: string;
  filename: string;
  content: AsyncIterable<Uint8Array>;
  truncated: () => boolean;
}

/** A stored attachment on its way out. */
export interface OutgoingFile {
  name: string;
  contentType: string;
  sizeBytes: number;
  content: Readable;
}

const refuse = (code: 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE', message: string, slot?: string) =>
  new AppError(code, message, slot ? [{ path: `body.${slot}`, message }] : []);

/**
 * Passes a file's content on while checking it: the type by its first bytes (a wrong one stops the upload at once),
 * the bytes this request has sent against the per-appeal total, and, at its end, the per-file limit.
 */
async function* checked(file: IncomingFile, slot: string, sent: { bytes: number }, found: { type: AttachmentType | null }) {
  const sniffer = attachmentSniffer();
  for await (const piece of file.content) {
    if (!sniffer.push(piece)) throw refuse('UNSUPPORTED_MEDIA_TYPE', APPEAL_FILE_WRONG_TYPE, slot);
    sent.bytes += piece.byteLength;
    if (sent.bytes > APPEAL_TOTAL_MAX_BYTES) throw refuse('PAYLOAD_TOO_LARGE', APPEAL_TOTAL_TOO_LARGE);
    yield piece;
  }
  if (file.truncated()) throw refuse('PAYLOAD_TOO_LARGE', APPEAL_FILE_TOO_LARGE, slot);
  found.type = sniffer.end();
  if (!found.type) throw refuse('UNSUPPORTED_MEDIA_TYPE', APPEAL_FILE_WRONG_TYPE, slot);
}

export function createAppealAttachments(deps: {
  db: Database;
  store: FileStore;
  /** The appeal a token opens (404 otherwise), from the appeals service. */
  appealFor: (token: string | undefined, appealId: string) => Promise<repo.AppealRow>;
}) {
  const { db, store } = deps;
  const removeQuietly = (keys: string[]) => Promise.all(keys.map((key) => store.remove(key).catch(() => undefined)));
  /**
   * Removes what no appeal refers to any more. A file reused from an earlier appeal (issue 23) stays referenced by
   * that submitted appeal, whose files never change, so taking it out of a draft never removes its content.
   */
  const removeUnreferenced = async (keys: string[]) => {
    const referenced = await repo.referencedNames(db, keys);
    await removeQuietly(keys.filter((key) => !referenced.has(key)));
  };

  /** The stored content of a file row; a row whose content is gone answers 404 like a missing file. */
  async function contentOf(file: { storedName: string; originalName: string; contentType: string; sizeBytes: number }) {
    const content = await store.get(file.storedName);
    if (!content) throw notFound('Attachment');
    return { name: file.originalName, contentType: file.contentType, sizeBytes: file.sizeBytes, content } satisfies OutgoingFile;
  }

  return {
    contentOf,

    /** An attachment back to whoever holds this appeal's token (the prescriber by key, or by the portal). */
    async download(token: string | undefined, appealId: string, slot: AppealSlot, ctx: AppealContext): Promise<OutgoingFile> {
      await deps.appealFor(token, appealId);
      const file = await repo.fileInSlot(db, appealId, slot);
      if (!file) throw notFound('Attachment');
      const outgoing = await contentOf(file);
      await writeAudit(db, {
        actorUserId: null,
        action: 'appeal.file.read',
        entityType: 'appeal',
        entityId: appealId,
        requestId: ctx.requestId,
        ip: ctx.ip,
        details: { slot },
      });
      return outgoing;
    },

    /** Empties a slot (nothing there is fine: the slot is empty either way); a submitted appeal is 409. */
    async removeFile(token: string | undefined, appealId: string, slot: AppealSlot, ctx: AppealContext): Promise<Appeal> {
      const row = await deps.appealFor(token, appealId);
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
      if (removed) await removeUnreferenced([removed]);
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    /** The patient's earlier appeal files at this practice, offered for this appeal (the read is audited). */
    async earlierFiles(token: string | undefined, appealId: string, ctx: AppealContext): Promise<EarlierAppealFile[]> {
      await deps.appealFor(token, appealId);
      const files = await repo.earlierFilesFor(db, appealId);
      await writeAudit(db, {
        actorUserId: null,
        action: 'appeal.earlier-files.read',
        entityType: 'appeal',
        entityId: appealId,
        requestId: ctx.requestId,
        ip: ctx.ip,
        details: { fileIds: files.map((f) => f.fileId) },
      });
      return files.map(({ storedName: _, ...file }) => ({ ...file, slot: file.slot as AppealSlot }));
    },

    /**
     * Puts one of the patient's earlier files in a slot of this appeal, by reference (the stored content is shared,
     * not copied). Only a file `earlierFiles` offers (anything else, another practice's included, is 404); the
     * appeal's size limit holds; the slot's earlier file goes unless another appeal still refers to it.
     */
    async reuseFile(token: string | undefined, appealId: string, input: ReuseAppealFile, ctx: AppealContext): Promise<Appeal> {
      const row = await deps.appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      const [earlier] = await repo.earlierFilesFor(db, appealId, input.fileId);
      if (!earlier) throw notFound('Attachment');
      const kept = (await repo.filesOf(db, appealId)).filter((f) => f.slot !== input.slot);
      if (kept.reduce((n, f) => n + f.sizeBytes, 0) + earlier.sizeBytes > APPEAL_TOTAL_MAX_BYTES) {
        throw new AppError('PAYLOAD_TOO_LARGE', APPEAL_TOTAL_TOO_LARGE);
      }
      const replaced = await db.transaction(async (tx) => {
        const before = await repo.putFile(tx, {
          appealId,
          slot: input.slot,
          originalName: earlier.originalName,
          storedName: earlier.storedName,
          contentType: earlier.contentType,
          sizeBytes: earlier.sizeBytes,
        });
        await writeAudit(tx, {
          actorUserId: null,
          action: 'appeal.file.reuse',
          entityType: 'appeal',
          entityId: appealId,
          requestId: ctx.requestId,
          ip: ctx.ip,
          details: { slot: input.slot, fileId: input.fileId },
        });
        return before;
      });
      if (replaced && replaced !== earlier.storedName) await removeUnreferenced([replaced]);
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    /**
     * Puts each file in its slot (replacing that slot's earlier file, and an earlier part for the same slot in this
     * request). Each is streamed into the store while it is checked; any refusal or failure removes what this
     * request stored and keeps the appeal as it was. A replaced file goes once the new one is recorded.
     */
    async upload(token: string | undefined, appealId: string, files: AsyncIterable<IncomingFile>, ctx: AppealContext) {
      const row = await deps.appealFor(token, appealId);
      if (row.submitted_at) throw new AppError('CONFLICT', APPEAL_SUBMITTED);
      const stored = new Map<AppealSlot, { key: string; filename: string; type: AttachmentType; sizeBytes: number }>();
      const written: string[] = [];
      const sent = { bytes: 0 };
      try {
        for await (const file of files) {
          if (!(APPEAL_SLOTS as readonly string[]).includes(file.field)) {
            throw new AppError('VALIDATION_FAILED', `Unknown attachment slot '${file.field}'.`);
          }
          const slot = file.field as AppealSlot;
          const key = randomUUID();
          written.push(key);
          const found: { type: AttachmentType | null } = { type: null };
          const { sizeBytes } = await store.put(key, checked(file, slot, sent, found));
          stored.set(slot, { key, filename: file.filename, type: found.type as AttachmentType, sizeBytes });
        }
        if (stored.size === 0) throw new AppError('VALIDATION_FAILED', 'Choose a file to attach.');
        const kept = (await repo.filesOf(db, appealId)).filter((f) => !stored.has(f.slot as AppealSlot));
        const total = kept.reduce((n, f) => n + f.sizeBytes, 0) + [...stored.values()].reduce((n, f) => n + f.sizeBytes, 0);
        if (total > APPEAL_TOTAL_MAX_BYTES) throw new AppError('PAYLOAD_TOO_LARGE', APPEAL_TOTAL_TOO_LARGE);

        const replaced = await db.transaction(async (tx) => {
          const previous: string[] = [];
          for (const [slot, file] of stored) {
            const before = await repo.putFile(tx, {
              appealId,
              slot,
              originalName: path.basename(file.filename).slice(0, 200) || 'attachment',
              storedName: file.key,
              contentType: file.type,
              sizeBytes: file.sizeBytes,
            });
            if (before) previous.push(before);
          }
          await writeAudit(tx, {
            actorUserId: null,
            action: 'appeal.upload',
            entityType: 'appeal',
            entityId: appealId,
            requestId: ctx.requestId,
            ip: ctx.ip,
            details: { slots: [...stored.keys()] },
          });
          return previous;
        });
        const current = new Set([...stored.values()].map((f) => f.key));
        await removeUnreferenced(replaced);
        await removeQuietly(written.filter((key) => !current.has(key)));
      } catch (error) {
        // Nothing half-kept: what this request stored goes again.
        await removeQuietly(written);
        throw error;
      }
      return appealOf(row, await repo.filesOf(db, appealId));
    },

    /**
     * Housekeeping (once per cluster): removes stored objects no appeal refers to (left by a crash between storing
     * and committing), once they are older than the grace period. Idempotent.
     */
    async sweepOrphanFiles(now: Date): Promise<{ removed: number }> {
      let removed = 0;
      for await (const keys of store.keysBefore(new Date(now.getTime() - ORPHAN_GRACE_MS))) {
        const referenced = await repo.referencedNames(db, keys);
        const orphans = keys.filter((key) => !referenced.has(key));
        await Promise.all(orphans.map((key) => store.remove(key)));
        removed += orphans.length;
      }
      return { removed };
    },
  };
}
export type AppealAttachments = ReturnType<typeof createAppealAttachments>;
