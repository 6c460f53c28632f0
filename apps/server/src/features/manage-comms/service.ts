/**
 * Manage Communications: practices, HCPs and staff, their communication preferences and links. Who may do
 * what is the contract's manageCommsAccess rule; anything outside it answers 404 (DESIGN §3). Every write
 * runs in one transaction with its audit row; deletes are soft and refused while work is open.
 */
import {
  type AddOfficeStaff,
  type ContactAddressInput,
  type Deleted,
  joinFullName,
  type MdOffice,
  type MdOfficeCommPrefs,
  type MdOfficeInput,
  type MdOfficeSearchResponse,
  type MdPartnerCommPrefs,
  type MdStaff,
  type MdStaffInput,
  type MdStaffListRecord,
  type MdStaffSearchResponse,
  type MdStaffUpdate,
  MY_PRACTICES_MAX,
  type MyPractice,
  manageCommsAccess,
  type PagedQuery,
  type SalesUser,
  splitFullName,
  toPrescribeVia,
  USER_ROLES,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { type Actor, findActor, roleSubjectOf } from '../../lib/actor.ts';
import { verifyAddress } from '../../lib/address-verification.ts';
import { type AuditEntry, writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

type OfficeRow = repo.OfficeRow;
type StaffRow = repo.StaffRow;

const COMMUNICATION = new Set(['email', 'fax', 'both', 'off']);

function officeOf(row: OfficeRow, canEdit: boolean): MdOffice {
  return {
    id: row.id,
    name: row.name,
    address1: row.address1,
    address2: row.address2,
    city: row.city,
    state: row.state,
    zip: row.zip,
    phoneNumber: row.phone,
    faxNumber: row.fax,
    email: row.email,
    isKeyAccount: row.isKeyAccount,
    salesUserId: row.salesUserId,
    mdOfficePrefs: {
      communicationMode: row.communicationMode as MdOffice['mdOfficePrefs']['communicationMode'],
      paHandling: row.paHandling as MdOffice['mdOfficePrefs']['paHandling'],
      refillRequestOption: row.refillRequestOption as MdOffice['mdOfficePrefs']['refillRequestOption'],
      notOnboarded: row.notOnboarded,
      prescribeVia: toPrescribeVia(row.prescribeVia),
      prescribingEnabled: row.prescribingEnabled,
      harrowPortalAccess: row.harrowPortalAccess,
    },
    canEdit,
  };
}

function staffListRecordOf(row: repo.StaffListRow): MdStaffListRecord {
  return {
    id: row.id,
    name: joinFullName(row.first_name, row.last_name),
    role: row.role,
    npi: row.npi,
    specialty: row.specialty,
    email: row.email,
    phoneNumber: row.phone,
    practiceNames: row.practice_names ?? [],
  };
}

function officeColumns(input: MdOfficeInput): Omit<repo.OfficeInsert, 'tenantId'> {
  return {
    name: input.name,
    address1: input.address1,
    address2: input.address2,
    city: input.city,
    state: input.state,
    zip: input.zip,
    phone: input.phoneNumber,
    fax: input.faxNumber,
    email: input.email,
    isKeyAccount: input.isKeyAccount,
    salesUserId: input.salesUserId,
  };
}

function staffColumns(input: MdStaffInput): Omit<repo.StaffInsert, 'tenantId'> {
  return {
    ...splitFullName(input.fullName),
    role: input.role,
    npi: input.npi,
    specialty: input.specialty,
    phone: input.phoneNumber,
    fax: input.faxNumber,
    email: input.email,
  };
}

/** Names of the fields a write changed (never their values: they may be personal data). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(after).filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null));
}

const fieldError = (path: string, message: string, code: 'VALIDATION_FAILED' | 'CONFLICT' = 'VALIDATION_FAILED') =>
  new AppError(code, message, [{ path, message }]);

const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 409 while `count` things still stand in the way; `reason` words it around the counted noun. */
function refuseWhile(count: number, word: string, reason: (counted: string) => string) {
  if (count > 0) throw new AppError('CONFLICT', reason(counted(count, word)));
}

const DUPLICATE_NPI = 'An HCP with this NPI already exists; add that person to the practice instead.';

/** What Manage Comms needs of the sign-in machinery: a person taken off a practice loses their sessions (issue 42). */
export interface PracticeSessions {
  endAllSessions(userId: string): Promise<void>;
}

export const SALES_FIELD_REFUSED = "Only an administrator changes a practice's sales representative.";

export function createManageCommsService(deps: { db: Database; sessions: PracticeSessions }) {
  const { db } = deps;

  async function actorOf(ctx: SignedInContext) {
    const actor = await findActor(db, ctx.userId);
    if (!actor) throw notFound();
    const access = manageCommsAccess(roleSubjectOf(actor));
    return { ...actor, access };
  }

  /** The actor, when they manage communications; anyone else gets 404 (the feature does not exist for them). */
  async function manager(ctx: SignedInContext) {
    const actor = await actorOf(ctx);
    if (actor.access !== 'manage') throw notFound();
    return actor;
  }

  async function managedOffice(db: Executor, actor: Actor, officeId: string): Promise<OfficeRow> {
    const office = await repo.findOffice(db, { tenantId: actor.tenantId, officeId });
    if (!office) throw notFound('Practice');
    return office;
  }

  async function managedStaff(db: Executor, actor: Actor, staffId: string): Promise<StaffRow> {
    const staff = await repo.findStaff(db, actor.tenantId, staffId);
    if (!staff) throw notFound('HCP or staff member');
    return staff;
  }

  const audit = (tx: Executor, ctx: SignedInContext, entry: Omit<AuditEntry, 'actorUserId' | 'requestId' | 'ip'>) =>
    writeAudit(tx, { ...entry, actorUserId: ctx.userId, requestId: ctx.requestId, ip: ctx.ip });
  /** An update's audit row names the fields it changed (not their values: they can be personal data). */
  const auditChange = (
    tx: Executor,
    ctx: SignedInContext,
    action: string,
    entity: { type: 'md_office' | 'md_staff'; id: string },
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ) =>
    audit(tx, ctx, { action, entityType: entity.type, entityId: entity.id, details: { fields: changedFields(before, after) } });

  /**
   * `salesUserId` decides which practices a sales user serves, and so where they may open a support window: it is
   * the admin's to set (docs/decisions/0048). A sales user may leave it as it is, or name themselves on a practice
   * they create; anything else is refused naming the field, never silently dropped.
   */
  async function checkSalesUser(tx: Executor, actor: Actor, salesUserId: string | null, current: string | null | undefined) {
    if (actor.role !== USER_ROLES.providerAdmin) {
      const creating = current === undefined;
      const allowed = creating ? salesUserId === null || salesUserId === actor.id : salesUserId === current;
      if (!allowed) throw fieldError('body.salesUserId', SALES_FIELD_REFUSED);
    }
    if (salesUserId && !(await repo.isSalesUserOfTenant(tx, actor.tenantId, salesUserId))) {
      throw fieldError('body.salesUserId', 'Choose a sales representative from the list.');
    }
  }

  async function checkNpiFree(tx: Executor, actor: Actor, npi: string | null, exceptStaffId?: string) {
    if (!npi) return;
    const existing = await repo.findStaffByNpi(tx, actor.tenantId, npi);
    if (existing && existing.id !== exceptStaffId) throw fieldError('body.npi', DUPLICATE_NPI, 'CONFLICT');
  }

  async function staffDetail(tx: Executor, row: StaffRow): Promise<MdStaff> {
    const [practices, portal] = await Promise.all([repo.practicesOfStaff(tx, row.id), repo.hasPortalAccount(tx, row.id)]);
    return {
      id: row.id,
      fullName: joinFullName(row.firstName, row.lastName),
      role: row.role,
      npi: row.npi,
      specialty: row.specialty,
      phoneNumber: row.phone,
      faxNumber: row.fax,
      email: row.email,
      commPrefs: {
        communicationMode: (COMMUNICATION.has(row.communicationMode)
          ? row.communicationMode
          : 'email') as MdStaff['commPrefs']['communicationMode'],
        emailOptIn: row.emailOptIn === 'doNot' ? 'doNot' : 'email',
      },
      contactAddresses: (row.contactAddresses as MdStaff['contactAddresses']) ?? [],
      practices,
      hasPortalAccount: portal,
    };
  }

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
export type ManageCommsService = ReturnType<typeof createManageCommsService>;

/** A contact address as stored: tidied, with whether its ZIP, city and state matched the ZIP table. */
async function verifiedAddress(db: Executor, input: ContactAddressInput) {
  const result = await verifyAddress(db, input);
  return { label: input.label, ...result.address, verified: result.verified };
}
