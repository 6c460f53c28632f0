/** New Comments (spec §7): reads are audited; replies and read marks are single transactions. */
import { type Comment, type CommentThread, REFERENCE_NOT_FOUND } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { auditingRefusals, entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct, findPatientInScope } from '../../lib/office-scope.ts';
import type { Reached } from '../../lib/reach/resolvers.ts';
import type { ReadRouting } from '../../lib/read-routing.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export type CommentsContext = SignedInContext;

const PATIENT_NOT_FOUND = 'Patient not found.';

export function createNewCommentsService(deps: { db: Database; reads: ReadRouting; now: () => Date }) {
  const { db } = deps;
  const audit = (ctx: CommentsContext, action: string, entityType: string, entityId: string | null, details = {}) =>
    writeAudit(db, entryOf(ctx, action, entityType, entityId, details));

  return {
    async doctorList(ctx: CommentsContext, filterBy: string | undefined): Promise<string> {
      return deps.reads.auditedList(ctx.userId, entryOf(ctx, 'comments.list', 'comment', null), (source, audit) =>
        repo.newCommentsJson(source, ctx.userId, filterBy, audit),
      );
    },

    async thread(ctx: CommentsContext, patientId: string, offset: number, limit: number): Promise<CommentThread> {
      if (!(await findPatientInScope(db, ctx.userId, patientId))) throw new AppError('NOT_FOUND', PATIENT_NOT_FOUND);
      const [{ total, rows }, patient] = await Promise.all([
        repo.thread(db, ctx.userId, patientId, offset, limit),
        repo.threadPatient(db, patientId),
      ]);
      await audit(ctx, 'comments.read', 'patient', patientId);
      return {
        total,
        ...(patient ? { patient } : {}),
        records: rows.map((r) => ({
          id: r.id,
          authorName: r.authorName,
          fromPatient: r.fromPatient,
          body: r.body,
          createdAt: r.createdAt.toISOString(),
          mentionId: r.mentionId,
          unread: r.mentionId !== null,
          medication: r.medication,
        })),
      };
    },

    /**
     * `patient` and `prescription` come resolved by the reach guard (the prescription one of that patient's); the
     * patient is read again under the transaction, so a practice change in between cannot slip through.
     */
    async reply(
      ctx: CommentsContext,
      input: { patient: Reached; prescription: Reached | null; comment: string },
    ): Promise<Comment> {
      const attempt = entryOf(ctx, 'comments.reply', 'patient', input.patient.id);
      return auditingRefusals(db, attempt, () =>
        db.transaction(async (tx) => {
          const patient = await findPatientInScope(tx, ctx.userId, input.patient.id);
          if (!patient) throw new AppError('NOT_FOUND', PATIENT_NOT_FOUND);
          if (input.prescription && !input.prescription.owners.patient?.includes(patient.id)) {
            throw new AppError('NOT_FOUND', REFERENCE_NOT_FOUND.prescription);
          }
          await assertMayAct(tx, ctx.userId, 'officeWrite');
          const row = await repo.insertReply(tx, {
            patientId: patient.id,
            mdOfficeId: patient.mdOfficeId,
            prescriptionId: input.prescription?.id ?? null,
            userId: ctx.userId,
            body: input.comment,
          });
          if (!row) throw new Error('comment insert returned no row');
          await writeAudit(tx, entryOf(ctx, 'comments.reply', 'patient', patient.id, { commentId: row.id }));
          return {
            id: row.id,
            authorName: row.authorName,
            fromPatient: false,
            body: row.body,
            createdAt: row.createdAt.toISOString(),
            mentionId: null,
            unread: false,
          };
        }),
      );
    },

    /** All or nothing: an id of another office (or unknown) is 404 and nothing is marked. Repeats mark nothing more. */
    async markRead(ctx: CommentsContext, mentionIds: string[]): Promise<number> {
      const ids = [...new Set(mentionIds)];
      const attempt = entryOf(ctx, 'comments.mentions.read', 'comment_mention', null, { mentionIds: ids });
      return auditingRefusals(db, attempt, () =>
        db.transaction(async (tx) => {
          const found = await repo.mentionsInScope(tx, ctx.userId, ids);
          if (found.length !== ids.length) throw new AppError('NOT_FOUND', 'Mention not found.');
          await assertMayAct(tx, ctx.userId, 'officeWrite');
          const marked = await repo.markMentionsRead(tx, ctx.userId, ids, deps.now());
          await writeAudit(tx, entryOf(ctx, 'comments.mentions.read', 'comment_mention', null, { mentionIds: ids, marked }));
          return marked;
        }),
      );
    },
  };
}
export type NewCommentsService = ReturnType<typeof createNewCommentsService>;
