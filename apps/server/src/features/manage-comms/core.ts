/**
 * What every Manage Communications use case shares: who may manage (the contract's manageCommsAccess rule; anyone
 * else gets 404, DESIGN §3), the practice and person in the actor's tenant, the audit row of a write and the field
 * checks. The use cases live beside this file, one per subject; service.ts puts them behind one face.
 */
import {
  joinFullName,
  type MdOffice,
  type MdOfficeInput,
  type MdStaff,
  type MdStaffInput,
  type MdStaffListRecord,
  manageCommsAccess,
  splitFullName,
  toPrescribeVia,
  USER_ROLES,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { type Actor, findActor, roleSubjectOf } from '../../lib/actor.ts';
import { type AuditEntry, writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export type OfficeRow = repo.OfficeRow;
export type StaffRow = repo.StaffRow;

const COMMUNICATION = new Set(['email', 'fax', 'both', 'off']);

export function officeOf(row: OfficeRow, canEdit: boolean): MdOffice {
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

export function staffListRecordOf(row: repo.StaffListRow): MdStaffListRecord {
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

export function officeColumns(input: MdOfficeInput): Omit<repo.OfficeInsert, 'tenantId'> {
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

export function staffColumns(input: MdStaffInput): Omit<repo.StaffInsert, 'tenantId'> {
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
export function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  return Object.keys(after).filter((key) => JSON.stringify(before[key] ?? null) !== JSON.stringify(after[key] ?? null));
}

export const fieldError = (path: string, message: string, code: 'VALIDATION_FAILED' | 'CONFLICT' = 'VALIDATION_FAILED') =>
  new AppError(code, message, [{ path, message }]);

const counted = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** 409 while `count` things still stand in the way; `reason` words it around the counted noun. */
export function refuseWhile(count: number, word: string, reason: (counted: string) => string) {
  if (count > 0) throw new AppError('CONFLICT', reason(counted(count, word)));
}

const DUPLICATE_NPI = 'An HCP with this NPI already exists; add that person to the practice instead.';

/** What Manage Comms needs of the sign-in machinery: a person taken off a practice loses their sessions (issue 42). */
export interface PracticeSessions {
  endAllSessions(userId: string): Promise<void>;
}

export const SALES_FIELD_REFUSED = "Only an administrator changes a practice's sales representative.";

export interface ManageCommsDeps {
  db: Database;
  sessions: PracticeSessions;
}

export function createManageCommsCore(deps: ManageCommsDeps) {
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

  return { actorOf, manager, managedOffice, managedStaff, audit, auditChange, checkSalesUser, checkNpiFree, staffDetail };
}
export type ManageCommsCore = ReturnType<typeof createManageCommsCore>;
