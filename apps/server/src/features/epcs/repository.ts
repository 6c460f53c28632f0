/** EPCS's SQL (issue 48, decision 0059): registrations, permission changes, signings, and what the reports read. */
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client.ts';
import { deaRegistrations, epcsChanges } from '../../db/schema.ts';
import { endOf, startOf, type ZoneDays } from '../../db/zone-days.ts';
import { practiceScopeSql } from '../../lib/office-scope.ts';
import { PRESCRIBER_ROLES_PARAM } from '../../lib/practice-prescribers.ts';

const iso = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** Who the caller is for EPCS: their prescriber record (if any), role and name. */
export async function callerOf(db: Executor, userId: string) {
  const [row] = await selectRows<{ staffId: string | null; staffRole: string | null; name: string; tenantId: string }>(
    db,
    sql`select u.md_staff_id as "staffId", s.role as "staffRole", u.tenant_id as "tenantId",
          coalesce(nullif(trim(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')), ''), u.email) as name
        from users u left join md_staff s on s.id = u.md_staff_id and s.deleted_at is null
        where u.id = ${userId} and u.disabled_at is null`,
  );
  return row ?? null;
}

/** The practices whose EPCS permissions the caller sees and manages: an office user's own practices only. */
export function ownPracticesSql(userId: string): SQL {
  return sql`select p.id from (${practiceScopeSql(userId)}) p join users u on u.id = ${userId} where u.role = 'mdo.user'`;
}

export async function registrationsOf(db: Executor, staffId: string) {
  return db
    .select({
      id: deaRegistrations.id,
      number: deaRegistrations.number,
      schedules: deaRegistrations.schedules,
      state: deaRegistrations.state,
      expiresOn: deaRegistrations.expiresOn,
      createdAt: deaRegistrations.createdAt,
    })
    .from(deaRegistrations)
    .where(and(eq(deaRegistrations.mdStaffId, staffId), isNull(deaRegistrations.removedAt)))
    .orderBy(asc(deaRegistrations.createdAt));
}

/** A new registration; null when the number is already on record for this prescriber. */
export async function insertRegistration(
  db: Executor,
  row: { mdStaffId: string; number: string; schedules: string[]; state: string; expiresOn: string; addedBy: string },
): Promise<string | null> {
  const [inserted] = await db
    .insert(deaRegistrations)
    .values(row)
    .onConflictDoNothing({ target: [deaRegistrations.mdStaffId, deaRegistrations.number], where: sql`removed_at is null` })
    .returning({ id: deaRegistrations.id });
  return inserted?.id ?? null;
}

export async function removeRegistration(db: Executor, staffId: string, id: string): Promise<boolean> {
  const done = await db
    .update(deaRegistrations)
    .set({ removedAt: new Date() })
    .where(and(eq(deaRegistrations.id, id), eq(deaRegistrations.mdStaffId, staffId), isNull(deaRegistrations.removedAt)))
    .returning({ id: deaRegistrations.id });
  return done.length > 0;
}

/** The prescribers of a practice (md_staff with a prescriber role), with their EPCS permission there and any waiting change. */
export async function prescribersOf(db: Executor, practiceId: string) {
  return selectRows<{
    hcpId: string;
    name: string;
    permission: 'granted' | 'none';
    pendingId: string | null;
    pendingAction: 'grant' | 'revoke' | null;
    pendingEnteredBy: string | null;
    pendingEnteredByName: string | null;
    pendingEnteredAt: string | null;
    registrations: { number: string; schedules: string[]; state: string; expiresOn: string }[];
  }>(
    db,
    sql`select s.id as "hcpId", trim(s.first_name || ' ' || s.last_name) as name,
          case when latest.action = 'grant' then 'granted' else 'none' end as permission,
          p.id as "pendingId", p.action as "pendingAction", p.entered_by as "pendingEnteredBy",
          (select coalesce(nullif(trim(coalesce(es.first_name, '') || ' ' || coalesce(es.last_name, '')), ''), eu.email)
             from users eu left join md_staff es on es.id = eu.md_staff_id where eu.id = p.entered_by) as "pendingEnteredByName",
          ${iso('p.entered_at')} as "pendingEnteredAt",
          coalesce((select json_agg(json_build_object('number', r.number, 'schedules', r.schedules, 'state', r.state,
              'expiresOn', r.expires_on::text)) from dea_registrations r where r.md_staff_id = s.id and r.removed_at is null),
            '[]'::json) as registrations
        from office_members m join md_staff s on s.id = m.md_staff_id and s.deleted_at is null
          left join lateral (select c.action from epcs_changes c where c.md_office_id = m.md_office_id
            and c.md_staff_id = s.id and c.approved_at is not null order by c.approved_at desc limit 1) latest on true
          left join epcs_changes p on p.md_office_id = m.md_office_id and p.md_staff_id = s.id
            and p.approved_at is null and p.declined_at is null
        where m.md_office_id = ${practiceId} and upper(s.role) = any(${PRESCRIBER_ROLES_PARAM})
        order by s.last_name, s.first_name, s.id`,
  );
}

export async function practicesOf(db: Executor, userId: string) {
  return selectRows<{ id: string; name: string; state: string | null }>(
    db,
    sql`select o.id, o.name, o.state from md_offices o where o.id in (${ownPracticesSql(userId)}) order by o.name, o.id`,
  );
}

export async function practiceOf(db: Executor, userId: string, practiceId: string) {
  const [row] = await selectRows<{ id: string; name: string; state: string | null }>(
    db,
    sql`select o.id, o.name, o.state from md_offices o where o.id = ${practiceId} and o.id in (${ownPracticesSql(userId)})`,
  );
  return row ?? null;
}

/** The prescriber's permission to sign controlled substances at the practice: their latest approved change grants it. */
export async function hasPermission(db: Executor, practiceId: string, staffId: string): Promise<boolean> {
  const [latest] = await db
    .select({ action: epcsChanges.action })
    .from(epcsChanges)
    .where(
      and(eq(epcsChanges.mdOfficeId, practiceId), eq(epcsChanges.mdStaffId, staffId), sql`${epcsChanges.approvedAt} is not null`),
    )
    .orderBy(desc(epcsChanges.approvedAt))
    .limit(1);
  return latest?.action === 'grant';
}

/** A waiting change; null when another is already waiting for this prescriber at the practice. */
export async function insertChange(
  db: Executor,
  row: { mdOfficeId: string; mdStaffId: string; action: 'grant' | 'revoke'; enteredBy: string; enteredFactor: string },
): Promise<string | null> {
  const [inserted] = await db
    .insert(epcsChanges)
    .values(row)
    .onConflictDoNothing({
      target: [epcsChanges.mdOfficeId, epcsChanges.mdStaffId],
      where: sql`approved_at is null and declined_at is null`,
    })
    .returning({ id: epcsChanges.id });
  return inserted?.id ?? null;
}

/** A waiting change of one of the caller's practices, locked. */
export async function lockWaitingChange(db: Executor, userId: string, changeId: string) {
  const [row] = await db
    .select({
      id: epcsChanges.id,
      mdOfficeId: epcsChanges.mdOfficeId,
      mdStaffId: epcsChanges.mdStaffId,
      action: epcsChanges.action,
      enteredBy: epcsChanges.enteredBy,
    })
    .from(epcsChanges)
    .where(
      and(
        eq(epcsChanges.id, changeId),
        isNull(epcsChanges.approvedAt),
        isNull(epcsChanges.declinedAt),
        sql`${epcsChanges.mdOfficeId} in (${ownPracticesSql(userId)})`,
      ),
    )
    .for('update');
  return row ?? null;
}

export async function approveChange(db: Executor, id: string, approvedBy: string, factor: string) {
  await db
    .update(epcsChanges)
    .set({ approvedBy, approvedFactor: factor, approvedAt: new Date(), registrationVerified: true })
    .where(eq(epcsChanges.id, id));
}

export async function declineChange(db: Executor, id: string, declinedBy: string) {
  await db.update(epcsChanges).set({ declinedBy, declinedAt: new Date() }).where(eq(epcsChanges.id, id));
}

/** The controlled prescriptions signed at a practice on a day (in the reports' zone), oldest first. */
export async function signedOn(db: Executor, practiceId: string, day: ZoneDays) {
  return selectRows<{
    signedAt: string;
    content: {
      prescriber: { name: string; dea: string };
      patient: { name: string };
      drug: { name: string; strength: string | null; schedule: string };
      quantity: number | null;
      refills: number;
    };
    keyId: string;
  }>(
    db,
    sql`select ${iso('signed_at')} as "signedAt", content, key_id as "keyId" from epcs_signings
        where md_office_id = ${practiceId} and signed_at >= ${startOf(day)} and signed_at < ${endOf(day)}
        order by signed_at, id`,
  );
}

/** The EPCS incidents of a practice on a day: refused signings and every change of permissions. */
export async function incidentsOn(db: Executor, practiceId: string, day: ZoneDays) {
  return selectRows<{ at: string; action: string; who: string; subject: string | null; details: Record<string, unknown> }>(
    db,
    sql`select ${iso('a.created_at')} as at, a.action,
          coalesce((select coalesce(nullif(trim(coalesce(s.first_name, '') || ' ' || coalesce(s.last_name, '')), ''), u.email)
            from users u left join md_staff s on s.id = u.md_staff_id where u.id = a.actor_user_id), 'unknown') as who,
          (select trim(s.first_name || ' ' || s.last_name) from md_staff s where s.id::text = a.details->>'hcpId') as subject,
          a.details
        from audit_log a
        where a.entity_type = 'epcs' and a.entity_id = ${practiceId}
          and a.created_at >= ${startOf(day)} and a.created_at < ${endOf(day)}
        order by a.created_at, a.id`,
  );
}
