/**
 * One reach check per kind of record (issue 42; docs/decisions/0048-reach-by-construction.md): given the caller and
 * the ids a request names, each answers the records within the caller's reach, with what they belong to (so pairs
 * can be checked). An id it does not answer is outside the caller's reach: the request is 404 before any use case
 * runs. Each is the widest reach any route grants for its kind; a use case may narrow it (a support window reads
 * but does not write, staff do not sign), never widen it.
 *
 * - practice: an office user's own practices; the provider's users (admin, sales) manage every practice of their
 *   tenant (decision 0015); never a deleted one.
 * - patient, prescription, mention, appeal, file: patient data, only in patientScopeSql (the practice's own people,
 *   a provider user inside an open support window).
 * - hcp: people of the caller's practices; the provider's users: their tenant's.
 * - rule, coverage: a practice's settings, within the practice reach.
 * - self: the signed-in user themself; user: themself, or (admin) a user of the tenant; account: admin only.
 * - product: the drug catalogue (shared, but an unknown id is still 404).
 * - decision: a decision's undo, only to whom made it, in the same session (issue 42: undo ids end with it).
 * - webhookEndpoint, webhookDelivery, integrationClient: the tenant's, to its provider admin.
 * - passkey: the signed-in user's own.
 * - deaRegistration, epcsSigning: the signed-in user's own; epcsChange: of the user's practices.
 * - auditPatient, auditUser, supportWindow: the tenant's patients, people and support windows, to its privacy officers
 *   only (issue 49; decision 0061): a reviewer reads every practice's trail, and nobody else reads any.
 */
import type { ReferenceKind } from '@hcp/contract';
import { type SQL, sql } from 'drizzle-orm';
import { arrayParam, type Executor, selectRows } from '../../db/client.ts';
import { patientScopeSql, practiceReachSql, practiceScopeSql } from '../office-scope.ts';

export interface Caller {
  userId: string;
  /** The session family of the request: derived credentials (an undo) are bound to it. */
  familyId: string;
}

/** A record within reach, with the records of other kinds it belongs to (for pair checks). */
export interface Reached {
  id: string;
  owners: Partial<Record<ReferenceKind, string[]>>;
}

type Resolver = (db: Executor, caller: Caller, ids: string[]) => Promise<Reached[]>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Row = { id: string; practice?: string | null; patient?: string | null; practices?: string[] | null; parent?: string | null };

/**
 * The records a reach query answers: each row's `id`, and what it belongs to from its optional columns
 * `practice` (or `practices`), `patient` and `parent` (a record of `parentKind`).
 */
async function select(db: Executor, query: SQL, parentKind?: ReferenceKind): Promise<Reached[]> {
  return (await selectRows<Row>(db, query)).map((r) => ({
    id: r.id,
    owners: {
      ...(r.practice ? { practice: [r.practice] } : {}),
      ...(r.practices ? { practice: r.practices } : {}),
      ...(r.patient ? { patient: [r.patient] } : {}),
      ...(parentKind && r.parent ? { [parentKind]: [r.parent] } : {}),
    },
  }));
}

const uuids = (ids: string[]) => arrayParam(ids, 'uuid');

/** The caller as one row `r` (with their tenant) when they are an enabled privacy officer; no row otherwise. */
const PRIVACY_OFFICER = (caller: Caller) =>
  sql`(select tenant_id from users where id = ${caller.userId} and privacy_officer and role = 'provider.admin'
        and disabled_at is null) r`;

/** Records that carry their practice in `md_office_id` (a fixed table name), within `scope` (practice ids). */
const ownedByPractice = (
  db: Executor,
  table: 'patients' | 'standing_rules' | 'coverages' | 'comment_mentions',
  ids: string[],
  scope: SQL,
) =>
  select(
    db,
    sql`select x.id, x.md_office_id as practice from ${sql.raw(table)} x
      where x.id = any(${uuids(ids)}) and x.md_office_id in (${scope})`,
  );

export const RESOLVERS: Record<ReferenceKind, Resolver> = {
  async self(_db, caller, ids) {
    return ids.filter((id) => id === caller.userId).map((id) => ({ id, owners: {} }));
  },

  async practice(db, caller, ids) {
    return select(
      db,
      sql`select id from md_offices where id = any(${uuids(ids)}) and id in (${practiceReachSql(caller.userId)})`,
    );
  },

  patient: (db, caller, ids) => ownedByPractice(db, 'patients', ids, patientScopeSql(caller.userId)),

  async prescription(db, caller, ids) {
    return select(
      db,
      sql`select rx.id, rx.patient_id as patient, p.md_office_id as practice
          from prescriptions rx join patients p on p.id = rx.patient_id
          where rx.id = any(${uuids(ids)}) and p.md_office_id in (${patientScopeSql(caller.userId)})`,
    );
  },

  async hcp(db, caller, ids) {
    return select(
      db,
      sql`select s.id, array(select m.md_office_id::text from office_members m where m.md_staff_id = s.id) as practices
          from md_staff s join users u on u.id = ${caller.userId}
          where s.id = any(${uuids(ids)}) and s.tenant_id = u.tenant_id and s.deleted_at is null and u.disabled_at is null
            and (u.role in ('provider.admin', 'provider.sales') or exists (
              select 1 from office_members m where m.md_staff_id = s.id and m.md_office_id in (${practiceReachSql(caller.userId)})))`,
    );
  },

  async user(db, caller, ids) {
    return select(
      db,
      sql`select v.id from users v join users u on u.id = ${caller.userId}
          where v.id = any(${uuids(ids)}) and v.tenant_id = u.tenant_id and u.disabled_at is null
            and (v.id = u.id or u.role = 'provider.admin')`,
    );
  },

  async account(db, caller, ids) {
    return select(
      db,
      sql`select v.id from users v join users u on u.id = ${caller.userId}
          where v.id = any(${uuids(ids)}) and v.tenant_id = u.tenant_id and u.disabled_at is null and u.role = 'provider.admin'`,
    );
  },

  async appeal(db, caller, ids) {
    return select(
      db,
      sql`select a.id, rx.patient_id as patient, p.md_office_id as practice
          from appeals a join prescriptions rx on rx.id = a.prescription_id join patients p on p.id = rx.patient_id
          where a.id = any(${uuids(ids)}) and p.md_office_id in (${patientScopeSql(caller.userId)})`,
    );
  },

  async file(db, caller, ids) {
    return select(
      db,
      sql`select f.id, a.id as parent, p.md_office_id as practice
          from appeal_files f join appeals a on a.id = f.appeal_id join prescriptions rx on rx.id = a.prescription_id
            join patients p on p.id = rx.patient_id
          where f.id = any(${uuids(ids)}) and p.md_office_id in (${patientScopeSql(caller.userId)})`,
      'appeal',
    );
  },

  rule: (db, caller, ids) => ownedByPractice(db, 'standing_rules', ids, practiceReachSql(caller.userId)),

  coverage: (db, caller, ids) => ownedByPractice(db, 'coverages', ids, practiceReachSql(caller.userId)),

  mention: (db, caller, ids) => ownedByPractice(db, 'comment_mentions', ids, patientScopeSql(caller.userId)),

  async product(db, _caller, ids) {
    return select(db, sql`select id from drug_products where id = any(${uuids(ids)})`);
  },

  async decision(db, caller, ids) {
    return select(
      db,
      sql`select distinct request_id as id from decision_undos
          where user_id = ${caller.userId} and request_id = any(${arrayParam(ids, 'text')})
            and session_family_id = ${caller.familyId}`,
    );
  },

  async webhookEndpoint(db, caller, ids) {
    return select(
      db,
      sql`select e.id from webhook_endpoints e join users u on u.id = ${caller.userId}
          where e.id = any(${uuids(ids)}) and e.tenant_id = u.tenant_id and u.role = 'provider.admin' and u.disabled_at is null`,
    );
  },

  async webhookDelivery(db, caller, ids) {
    return select(
      db,
      sql`select d.id, d.endpoint_id as parent from webhook_deliveries d join webhook_endpoints e on e.id = d.endpoint_id
          join users u on u.id = ${caller.userId}
          where d.id = any(${uuids(ids)}) and e.tenant_id = u.tenant_id and u.role = 'provider.admin' and u.disabled_at is null`,
      'webhookEndpoint',
    );
  },

  async passkey(db, caller, ids) {
    return select(db, sql`select id from passkeys where id = any(${uuids(ids)}) and user_id = ${caller.userId}`);
  },

  async deaRegistration(db, caller, ids) {
    return select(
      db,
      sql`select r.id from dea_registrations r join users u on u.id = ${caller.userId} and u.md_staff_id = r.md_staff_id
          where r.id = any(${uuids(ids)}) and r.removed_at is null and u.disabled_at is null`,
    );
  },

  async epcsChange(db, caller, ids) {
    return select(
      db,
      sql`select c.id, c.md_office_id as practice from epcs_changes c
          where c.id = any(${uuids(ids)}) and c.md_office_id in (${practiceScopeSql(caller.userId)})`,
    );
  },

  async epcsSigning(db, caller, ids) {
    return select(db, sql`select id from epcs_signings where id = any(${uuids(ids)}) and user_id = ${caller.userId}`);
  },

  async auditPatient(db, caller, ids) {
    return select(
      db,
      sql`select p.id, p.md_office_id as practice from patients p join md_offices o on o.id = p.md_office_id
          join ${PRIVACY_OFFICER(caller)} on r.tenant_id = o.tenant_id where p.id = any(${uuids(ids)})`,
    );
  },

  async auditUser(db, caller, ids) {
    return select(
      db,
      sql`select v.id from users v join ${PRIVACY_OFFICER(caller)} on r.tenant_id = v.tenant_id where v.id = any(${uuids(ids)})`,
    );
  },

  async supportWindow(db, caller, ids) {
    return select(
      db,
      sql`select g.id, g.md_office_id as practice from support_access_grants g join md_offices o on o.id = g.md_office_id
          join ${PRIVACY_OFFICER(caller)} on r.tenant_id = o.tenant_id where g.id = any(${uuids(ids)})`,
    );
  },

  async integrationClient(db, caller, ids) {
    return select(
      db,
      sql`select c.id from integration_clients c join users u on u.id = ${caller.userId}
          where c.id = any(${uuids(ids)}) and c.tenant_id = u.tenant_id and u.role = 'provider.admin' and u.disabled_at is null`,
    );
  },
};

/** Ids that cannot name any record of a uuid-keyed kind are outside everyone's reach without a query. */
export const wellFormed = (kind: ReferenceKind, id: string) => kind === 'decision' || UUID.test(id);
