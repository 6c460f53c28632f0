/**
 * The fax cover sheet's one-time link (issue 20): after sign-in, one of the practice's own people opens it once
 * and lands on Action Needed. Anyone else, or an unknown code, gets 404 (the same as for an id out of reach); the
 * practice's own people get 410 for a used or expired link. Stored hashed; each use is audited.
 */
import { mayChangePatientData, NOTICE_LINK_MESSAGES, type NoticeLinkRedeemed } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { sha256 } from '../../lib/crypto.ts';
import { AppError } from '../../lib/errors.ts';
import { clinicalAccessOf, practicesWithPatientAccess } from '../../lib/office-scope.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export function createNoticeLinks(deps: { db: Database; now: () => Date }) {
  return {
    async redeem(ctx: SignedInContext, code: string): Promise<NoticeLinkRedeemed> {
      const { db } = deps;
      // Support access reads on a practice's behalf; the practice's own link is for its own people.
      const own = mayChangePatientData(await clinicalAccessOf(db, ctx.userId));
      const practices = own ? await practicesWithPatientAccess(db, ctx.userId) : [];
      const hash = sha256(code);
      return db.transaction(async (tx) => {
        const practiceId = await repo.useLink(tx, hash, ctx.userId, practices, deps.now());
        if (!practiceId) {
          const known = await repo.linkOfPractices(tx, hash, practices);
          throw new AppError(known ? 'GONE' : 'NOT_FOUND', known ? NOTICE_LINK_MESSAGES.used : NOTICE_LINK_MESSAGES.notFound);
        }
        await writeAudit(tx, {
          actorUserId: ctx.userId,
          action: 'notice-link.use',
          entityType: 'md-office',
          entityId: practiceId,
          requestId: ctx.requestId,
          ip: ctx.ip,
        });
        return { practiceId };
      });
    },
  };
}
export type NoticeLinks = ReturnType<typeof createNoticeLinks>;
