/**
 * Support access (break-the-glass) and the practice overview (decision 0020). Only the provider's admin and
 * sales users have either; anyone else gets 404 (the calls do not exist for them). A window is read-only,
 * on one practice the user manages, with a reason, for at most an hour; opening and ending are audited, and
 * the practice's own users read every window afterwards.
 */
import {
  isProviderUser,
  type PracticeWorkloadResponse,
  type SupportAccessGrant,
  type SupportAccessLog,
  type SupportAccessOpen,
  type SupportAccessState,
  totalOfCounts,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { actorAllowedBy } from '../../lib/actor.ts';
import { entryOf, writeAudit } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import { notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

const PRACTICE_LOG_LIMIT = 50;

const toGrant = (row: repo.GrantRow): SupportAccessGrant => ({
  ...row,
  startedAt: row.startedAt.toISOString(),
  expiresAt: row.expiresAt.toISOString(),
  endedAt: row.endedAt ? row.endedAt.toISOString() : null,
});

export function createSupportAccessService(deps: { db: Database; now: () => Date }) {
  const { db } = deps;

  const providerUser = (ctx: SignedInContext) => actorAllowedBy(db, ctx.userId, isProviderUser, 'Page');

  const audit = (ctx: SignedInContext, action: string, officeId: string, details: Record<string, unknown>) =>
    writeAudit(db, entryOf(ctx, action, 'md_office', officeId, details));

  return {
    async workload(
      ctx: SignedInContext,
      query: { searchText?: string | undefined; offset: number; limit: number },
    ): Promise<PracticeWorkloadResponse> {
      await providerUser(ctx);
      const searchText = query.searchText || undefined;
      const rows = await repo.practiceWorkload(db, { userId: ctx.userId, todayIso: todayIsoOf(deps.now), searchText, ...query });
      const total = rows[0]?.totalPractices ?? (await repo.countPracticesInScope(db, ctx.userId, searchText));
      return {
        total,
        records: rows.map((r) => {
          const counts = {
            altMed: r.altMed,
            appeals: r.appeals,
            phoneException: r.phoneException,
            priorAuth: r.priorAuth,
            refillAuth: r.refillAuth,
          };
          return {
            mdOfficeId: r.mdOfficeId,
            name: r.name,
            city: r.city,
            state: r.state,
            counts: { ...counts, total: totalOfCounts(counts) },
            unreadComments: r.unreadComments,
          };
        }),
      };
    },

    async current(ctx: SignedInContext): Promise<SupportAccessState> {
      await providerUser(ctx);
      const row = await repo.openGrantOf(db, ctx.userId);
      return { active: row ? toGrant(row) : null };
    },

    /** Opens a window (ending the user's previous one: one practice at a time keeps the scope narrow). */
    async open(ctx: SignedInContext, input: SupportAccessOpen): Promise<SupportAccessGrant> {
      await providerUser(ctx);
      return db.transaction(async (tx) => {
        if (!(await repo.isPracticeInScope(tx, ctx.userId, input.mdOfficeId))) throw notFound('Practice');
        const previous = await repo.endOpenGrant(tx, ctx.userId);
        if (previous) {
          await writeAudit(
            tx,
            entryOf(ctx, 'support-access.ended', 'md_office', previous.mdOfficeId, { grantId: previous.id, why: 'replaced' }),
          );
        }
        const id = await repo.insertGrant(tx, { ...input, userId: ctx.userId, requestId: ctx.requestId });
        // The reason stays in the grant row only: free text may name a patient, and audit details are copied widely.
        await writeAudit(
          tx,
          entryOf(ctx, 'support-access.opened', 'md_office', input.mdOfficeId, { grantId: id, minutes: input.minutes }),
        );
        const row = await repo.grantById(tx, id);
        if (!row) throw new Error('support access grant vanished');
        return toGrant(row);
      });
    },

    async end(ctx: SignedInContext): Promise<SupportAccessState> {
      await providerUser(ctx);
      const ended = await repo.endOpenGrant(db, ctx.userId);
      if (ended) await audit(ctx, 'support-access.ended', ended.mdOfficeId, { grantId: ended.id, why: 'ended by user' });
      return { active: null };
    },

    /** Every window opened on a practice, for its own users and the provider's managers of it. */
    async practiceLog(ctx: SignedInContext, officeId: string): Promise<SupportAccessLog> {
      if (!(await repo.isPracticeInScope(db, ctx.userId, officeId))) throw notFound('Practice');
      const rows = await repo.grantsOfPractice(db, officeId, PRACTICE_LOG_LIMIT);
      return { records: rows.map(toGrant) };
    },
  };
}
export type SupportAccessService = ReturnType<typeof createSupportAccessService>;
