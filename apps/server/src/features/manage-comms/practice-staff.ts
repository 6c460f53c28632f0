/** The people of one practice: list them, add an existing or a new one, take one off (their sessions end, issue 42). */
import type { AddOfficeStaff, Deleted, MdStaff, MdStaffListRecord } from '@hcp/contract';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import {
  fieldError,
  type ManageCommsCore,
  type ManageCommsDeps,
  refuseWhile,
  type StaffRow,
  staffColumns,
  staffListRecordOf,
} from './core.ts';
import * as repo from './repository.ts';

export function practiceStaffUseCases(deps: ManageCommsDeps, core: ManageCommsCore) {
  const { db } = deps;
  const { manager, managedOffice, audit, checkNpiFree, staffDetail } = core;
  return {
    async listOfficeStaff(ctx: SignedInContext, officeId: string): Promise<MdStaffListRecord[]> {
      const actor = await manager(ctx);
      await managedOffice(db, actor, officeId);
      return (await repo.listOfficeStaff(db, officeId)).map(staffListRecordOf);
    },

    async addOfficeStaff(ctx: SignedInContext, officeId: string, body: AddOfficeStaff): Promise<MdStaff> {
      const actor = await manager(ctx);
      return db.transaction(async (tx) => {
        await managedOffice(tx, actor, officeId);
        let staff: StaffRow;
        if (body.mdStaffId) {
          const existing = await repo.findStaff(tx, actor.tenantId, body.mdStaffId);
          if (!existing) throw fieldError('body.mdStaffId', 'Choose a person from the list.');
          staff = existing;
        } else if (body.staff) {
          await checkNpiFree(tx, actor, body.staff.npi).catch((error: AppError) => {
            throw new AppError(error.code, error.message, [{ path: 'body.staff.npi', message: error.message }]);
          });
          staff = await repo.insertStaff(tx, { ...staffColumns(body.staff), tenantId: actor.tenantId });
          await audit(tx, ctx, { action: 'staff.create', entityType: 'md_staff', entityId: staff.id });
        } else {
          throw new AppError('VALIDATION_FAILED', 'Choose an existing person or describe a new one.');
        }
        if (await repo.linkStaff(tx, officeId, staff.id)) {
          await audit(tx, ctx, {
            action: 'practice.staff.add',
            entityType: 'md_office',
            entityId: officeId,
            details: { mdStaffId: staff.id },
          });
        }
        return staffDetail(tx, staff);
      });
    },

    async removeOfficeStaff(ctx: SignedInContext, officeId: string, staffId: string): Promise<Deleted> {
      const actor = await manager(ctx);
      const removed = await db.transaction(async (tx) => {
        await managedOffice(tx, actor, officeId);
        refuseWhile(
          await repo.countOpenPrescriptionsOfStaff(tx, staffId, officeId),
          'prescription',
          (n) => `This prescriber has ${n} at this practice waiting for action; remove them once those are done.`,
        );
        if (!(await repo.unlinkStaff(tx, officeId, staffId))) throw notFound('HCP or staff member');
        await audit(tx, ctx, {
          action: 'practice.staff.remove',
          entityType: 'md_office',
          entityId: officeId,
          details: { mdStaffId: staffId },
        });
        return {
          deleted: { id: staffId, deleted: true as const },
          accounts: await repo.detachAccountsOfStaff(tx, staffId, officeId),
        };
      });
      // Taken off a practice, the person's sessions end, and everything derived from them (issue 42).
      for (const userId of removed.accounts) await deps.sessions.endAllSessions(userId);
      return removed.deleted;
    },
  };
}
