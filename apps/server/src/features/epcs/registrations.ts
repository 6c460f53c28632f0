/**
 * A prescriber's DEA registrations (issue 48, decision 0059): added and removed by their own account, each change
 * audited. A registration alone signs nothing: permission at a practice is granted by two people (access.ts).
 */
import { type DeaRegistration, EPCS_MESSAGES } from '@hcp/contract';
import { writeAudit } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import { prescriberOf } from '../../lib/epcs.ts';
import { AppError } from '../../lib/errors.ts';
import type { EpcsContext, EpcsDeps } from './common.ts';
import * as repo from './repository.ts';

export function registrationUseCases({ db, now }: EpcsDeps) {
  const audit = (ctx: EpcsContext, action: string, details: Record<string, unknown>) =>
    writeAudit(db, {
      actorUserId: ctx.userId,
      action,
      entityType: 'user',
      entityId: ctx.userId,
      requestId: ctx.requestId,
      ip: ctx.ip,
      details,
    });

  return {
    async addRegistration(
      ctx: EpcsContext,
      input: { number: string; schedules: string[]; state: string; expiresOn: string },
    ): Promise<DeaRegistration> {
      const { staffId } = await prescriberOf(db, ctx.userId);
      if (input.expiresOn < todayIsoOf(now)) {
        throw new AppError('VALIDATION_FAILED', EPCS_MESSAGES.expiresPast, [
          { path: 'body.expiresOn', message: EPCS_MESSAGES.expiresPast },
        ]);
      }
      const id = await repo.insertRegistration(db, { mdStaffId: staffId, ...input, addedBy: ctx.userId });
      if (!id) {
        throw new AppError('CONFLICT', EPCS_MESSAGES.duplicateRegistration, [
          { path: 'body.number', message: EPCS_MESSAGES.duplicateRegistration },
        ]);
      }
      // The number is the prescriber's own identifier, not patient data: the audit row may name it.
      await audit(ctx, 'epcs.registration.added', {
        registrationId: id,
        number: input.number,
        schedules: input.schedules,
        state: input.state,
      });
      const added = (await repo.registrationsOf(db, staffId)).find((r) => r.id === id);
      if (!added) throw new Error('registration not read back');
      return { ...added, addedAt: added.createdAt.toISOString() } as DeaRegistration;
    },

    async removeRegistration(ctx: EpcsContext, registrationId: string): Promise<void> {
      const { staffId } = await prescriberOf(db, ctx.userId);
      if (!(await repo.removeRegistration(db, staffId, registrationId)))
        throw new AppError('NOT_FOUND', 'DEA registration not found.');
      await audit(ctx, 'epcs.registration.removed', { registrationId });
    },
  };
}
