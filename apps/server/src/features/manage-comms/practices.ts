/** Practices: search, read, create, change, their communication preferences, delete, and the user's own practices. */
import {
  type Deleted,
  type MdOffice,
  type MdOfficeCommPrefs,
  type MdOfficeInput,
  type MdOfficeSearchResponse,
  MY_PRACTICES_MAX,
  type MyPractice,
  type PagedQuery,
  type SalesUser,
} from '@hcp/contract';
import { notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { type ManageCommsCore, type ManageCommsDeps, officeColumns, officeOf, refuseWhile } from './core.ts';
import * as repo from './repository.ts';

export function practiceUseCases(deps: ManageCommsDeps, core: ManageCommsCore) {
  const { db } = deps;
  const { actorOf, manager, managedOffice, audit, auditChange, checkSalesUser } = core;
  return {
    async searchOffices(ctx: SignedInContext, query: PagedQuery): Promise<MdOfficeSearchResponse> {
      const actor = await manager(ctx);
      const { rows, total } = await repo.searchOffices(db, { tenantId: actor.tenantId, ...query });
      return {
        total,
        records: rows.map((r) => ({
          id: r.id,
          name: r.name,
          city: r.city,
          state: r.state,
          phoneNumber: r.phone,
          email: r.email,
          isKeyAccount: r.is_key_account,
          mdOfficePrefs: { notOnboarded: r.not_onboarded },
        })),
      };
    },

    async getOffice(ctx: SignedInContext, officeId: string): Promise<MdOffice> {
      const actor = await actorOf(ctx);
      if (actor.access === 'none') throw notFound('Practice');
      const office = await repo.findOffice(db, {
        tenantId: actor.tenantId,
        officeId,
        ...(actor.access === 'manage' ? {} : { scopeUserId: actor.id }),
      });
      if (!office) throw notFound('Practice');
      return officeOf(office, actor.access === 'manage');
    },

    async createOffice(ctx: SignedInContext, input: MdOfficeInput): Promise<MdOffice> {
      const actor = await manager(ctx);
      return db.transaction(async (tx) => {
        await checkSalesUser(tx, actor, input.salesUserId, undefined);
        const row = await repo.insertOffice(tx, {
          ...officeColumns(input),
          tenantId: actor.tenantId,
          // A new practice starts not onboarded until someone sets its preferences.
          notOnboarded: true,
        });
        await audit(tx, ctx, { action: 'practice.create', entityType: 'md_office', entityId: row.id });
        return officeOf(row, true);
      });
    },

    async updateOffice(ctx: SignedInContext, officeId: string, input: MdOfficeInput): Promise<MdOffice> {
      const actor = await manager(ctx);
      const { office, removedSales } = await db.transaction(async (tx) => {
        const before = await managedOffice(tx, actor, officeId);
        await checkSalesUser(tx, actor, input.salesUserId, before.salesUserId);
        const values = officeColumns(input);
        const row = await repo.updateOffice(tx, officeId, values);
        await auditChange(tx, ctx, 'practice.update', { type: 'md_office', id: officeId }, before, values);
        // The representative taken off the practice: their windows on it end now, their sessions below.
        const removed = before.salesUserId && before.salesUserId !== input.salesUserId ? before.salesUserId : null;
        if (removed) await repo.endSupportWindows(tx, removed, officeId, new Date());
        return { office: officeOf(row, true), removedSales: removed };
      });
      if (removedSales) await deps.sessions.endAllSessions(removedSales);
      return office;
    },

    async updateOfficeCommPrefs(ctx: SignedInContext, officeId: string, prefs: MdOfficeCommPrefs): Promise<MdOffice> {
      const actor = await actorOf(ctx);
      if (actor.access === 'none') throw notFound('Practice');
      return db.transaction(async (tx) => {
        const before = await repo.findOffice(tx, {
          tenantId: actor.tenantId,
          officeId,
          ...(actor.access === 'manage' ? {} : { scopeUserId: actor.id }),
        });
        if (!before) throw notFound('Practice');
        const row = await repo.updateOffice(tx, officeId, prefs);
        await auditChange(tx, ctx, 'practice.comm-prefs.update', { type: 'md_office', id: officeId }, before, prefs);
        return officeOf(row, actor.access === 'manage');
      });
    },

    async deleteOffice(ctx: SignedInContext, officeId: string): Promise<Deleted> {
      const actor = await manager(ctx);
      return db.transaction(async (tx) => {
        await managedOffice(tx, actor, officeId);
        refuseWhile(
          await repo.countOpenPrescriptionsOfOffice(tx, officeId),
          'prescription',
          (n) => `This practice has ${n} waiting for action; it can be deleted once they are done.`,
        );
        refuseWhile(
          await repo.countActiveUsersOfOffice(tx, officeId),
          'active portal account',
          (n) => `This practice has ${n}; disable them in Manage Accounts first.`,
        );
        await repo.updateOffice(tx, officeId, { deletedAt: new Date() });
        await audit(tx, ctx, { action: 'practice.delete', entityType: 'md_office', entityId: officeId });
        return { id: officeId, deleted: true as const };
      });
    },

    /** The practices the user acts for, with their communication preferences (practice-preference screens). */
    async myPractices(ctx: SignedInContext): Promise<MyPractice[]> {
      const actor = await actorOf(ctx);
      if (actor.access === 'none') throw notFound();
      const rows = await repo.practicesInScope(db, ctx.userId, MY_PRACTICES_MAX);
      return rows.map((row) => {
        const office = officeOf(row, false);
        return {
          id: office.id,
          name: office.name,
          city: office.city,
          state: office.state,
          phoneNumber: office.phoneNumber,
          email: office.email,
          isKeyAccount: office.isKeyAccount,
          mdOfficePrefs: {
            communicationMode: office.mdOfficePrefs.communicationMode,
            paHandling: office.mdOfficePrefs.paHandling,
            refillRequestOption: office.mdOfficePrefs.refillRequestOption,
            notOnboarded: office.mdOfficePrefs.notOnboarded,
          },
        };
      });
    },

    async salesList(ctx: SignedInContext): Promise<SalesUser[]> {
      const actor = await manager(ctx);
      return repo.salesUsers(db, actor.tenantId);
    },
  };
}
