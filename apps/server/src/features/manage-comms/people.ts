/** HCPs and staff across the tenant: search, read, change (details, contact addresses, preferences), delete. */
import type {
  ContactAddressInput,
  Deleted,
  MdPartnerCommPrefs,
  MdStaff,
  MdStaffSearchResponse,
  MdStaffUpdate,
  PagedQuery,
} from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { verifyAddress } from '../../lib/address-verification.ts';
import { AppError } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { type ManageCommsCore, type ManageCommsDeps, refuseWhile, staffColumns, staffListRecordOf } from './core.ts';
import * as repo from './repository.ts';

export function peopleUseCases(deps: ManageCommsDeps, core: ManageCommsCore) {
  const { db } = deps;
  const { manager, managedStaff, audit, auditChange, checkNpiFree, staffDetail } = core;
  return {
    async searchStaff(ctx: SignedInContext, query: PagedQuery): Promise<MdStaffSearchResponse> {
      const actor = await manager(ctx);
      const { rows, total } = await repo.searchStaff(db, { tenantId: actor.tenantId, ...query });
      return { total, records: rows.map(staffListRecordOf) };
    },

    async getStaff(ctx: SignedInContext, staffId: string): Promise<MdStaff> {
      const actor = await manager(ctx);
      return staffDetail(db, await managedStaff(db, actor, staffId));
    },

    async updateStaff(ctx: SignedInContext, staffId: string, body: MdStaffUpdate): Promise<MdStaff> {
      const actor = await manager(ctx);
      return db.transaction(async (tx) => {
        const before = await managedStaff(tx, actor, staffId);
        let values: repo.StaffWrite;
        if ('contactAddresses' in body) {
          values = { contactAddresses: await Promise.all(body.contactAddresses.map((a) => verifiedAddress(tx, a))) };
        } else {
          // The role/NPI rule is checked by the contract's schema before this runs.
          await checkNpiFree(tx, actor, body.npi, staffId);
          values = staffColumns(body);
        }
        const row = await repo.updateStaff(tx, staffId, values);
        await auditChange(
          tx,
          ctx,
          'contactAddresses' in body ? 'staff.addresses.update' : 'staff.update',
          { type: 'md_staff', id: staffId },
          before,
          values,
        );
        return staffDetail(tx, row);
      });
    },

    async updatePartnerCommPrefs(ctx: SignedInContext, staffId: string, prefs: MdPartnerCommPrefs): Promise<MdStaff> {
      const actor = await manager(ctx);
      return db.transaction(async (tx) => {
        const before = await managedStaff(tx, actor, staffId);
        const row = await repo.updateStaff(tx, staffId, prefs);
        await auditChange(tx, ctx, 'staff.comm-prefs.update', { type: 'md_staff', id: staffId }, before, prefs);
        return staffDetail(tx, row);
      });
    },

    async deleteStaff(ctx: SignedInContext, staffId: string): Promise<Deleted> {
      const actor = await manager(ctx);
      return db.transaction(async (tx) => {
        await managedStaff(tx, actor, staffId);
        refuseWhile(
          await repo.countOpenPrescriptionsOfStaff(tx, staffId),
          'prescription',
          (n) => `This person has ${n} waiting for action; they can be deleted once those are done.`,
        );
        if (await repo.hasPortalAccount(tx, staffId)) {
          throw new AppError('CONFLICT', 'This person has a portal account; disable it in Manage Accounts first.');
        }
        await repo.updateStaff(tx, staffId, { deletedAt: new Date() });
        await audit(tx, ctx, { action: 'staff.delete', entityType: 'md_staff', entityId: staffId });
        return { id: staffId, deleted: true as const };
      });
    },
  };
}

/** A contact address as stored: tidied, with whether its ZIP, city and state matched the ZIP table. */
async function verifiedAddress(db: Executor, input: ContactAddressInput) {
  const result = await verifyAddress(db, input);
  return { label: input.label, ...result.address, verified: result.verified };
}
