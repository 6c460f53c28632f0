/** SQL of New Comments: unread comments per doctor and patient, the thread, replies and read marks. */
import { and, asc, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { commentMentions, comments, patients, users } from '../../db/schema.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';
import { type ListAnswer, type ListAudit, SHOWN_COLUMN, selectListAnswer } from '../../lib/read-routing.ts';

/**
 * `{doctors, total}` as JSON text in one statement: the unread mentions of the user's offices, per patient
 * (count and newest), each patient under the prescriber of their latest prescription.
 */
/** `audit` is the read's audit CTE (lib/read-routing.ts). */
export async function newCommentsJson(
  db: Executor,
  userId: string,
  filterBy: string | undefined,
  audit: ListAudit,
): Promise<ListAnswer> {
  return selectListAnswer(
    db,
    sql`
    with unread as (
      select c.patient_id, c.created_at
      from comment_mentions m join comments c on c.id = m.comment_id
      where m.md_office_id = any(array(${patientScopeSql(userId)})) and m.read_at is null
    ),
    per_patient as (
      select u.patient_id, count(*)::int as unread_count, max(u.created_at) as latest,
        (select rx.prescriber_id from prescriptions rx where rx.patient_id = u.patient_id
          order by rx.prescribed_at desc, rx.id limit 1) as doctor_id
      from unread u group by u.patient_id
    ),
    picked as (
      select * from per_patient where doctor_id is not null ${filterBy ? sql`and doctor_id = ${filterBy}::uuid` : sql``}
    ),
    ${audit(sql`select patient_id from picked`)},
    by_doctor as (
      select p.doctor_id, json_agg(json_build_object(
        'id', pt.id, 'firstName', pt.first_name, 'lastName', pt.last_name, 'dob', to_char(pt.dob, 'YYYY-MM-DD'),
        'unreadCount', p.unread_count, 'latestAt', to_char(p.latest at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
      ) order by p.latest desc, pt.id) as patients
      from picked p join patients pt on pt.id = p.patient_id
      group by p.doctor_id
    )
    select json_build_object(
      'total', coalesce((select sum(unread_count) from picked), 0)::int,
      'doctors', coalesce((select json_agg(json_build_object('doctorId', d.id, 'name', d.first_name || ' ' || d.last_name,
        'role', d.role, 'patients', b.patients) order by lower(d.last_name), lower(d.first_name), d.id)
        from by_doctor b join md_staff d on d.id = b.doctor_id), '[]'::json)
    )::text as body, ${SHOWN_COLUMN}
  `,
    '{"doctors":[],"total":0}',
  );
}

/** Name and date of birth of a patient the caller may see (checked by the service first). */
export async function threadPatient(db: Executor, patientId: string) {
  const [row] = await db
    .select({ id: patients.id, firstName: patients.firstName, lastName: patients.lastName, dob: patients.dob })
    .from(patients)
    .where(eq(patients.id, patientId));
  return row ?? null;
}

/** The thread, oldest first, with this user's offices' unread mention on each comment. */
export async function thread(db: Executor, userId: string, patientId: string, offset: number, limit: number) {
  const [total] = await db.select({ n: count() }).from(comments).where(eq(comments.patientId, patientId));
  const rows = await db
    .select({
      id: comments.id,
      authorName: comments.authorName,
      fromPatient: comments.fromPatient,
      body: comments.body,
      createdAt: comments.createdAt,
      medication: sql<string | null>`(select rx.drug_name || coalesce(' ' || rx.strength, '') from prescriptions rx
        where rx.id = ${sql.raw('"comments"."prescription_id"')})`,
      // Written out in full: inside a selected field Drizzle would print the bare column name, which m.id would shadow.
      mentionId: sql<string | null>`(select m.id from comment_mentions m where m.comment_id = ${sql.raw('"comments"."id"')}
        and m.read_at is null and m.md_office_id in (${patientScopeSql(userId)}) limit 1)`,
    })
    .from(comments)
    .where(eq(comments.patientId, patientId))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .offset(offset)
    .limit(limit);
  return { total: total?.n ?? 0, rows };
}

export async function insertReply(
  db: Executor,
  row: { patientId: string; mdOfficeId: string; prescriptionId: string | null; userId: string; body: string },
) {
  const [author] = await db.select({ name: users.displayName }).from(users).where(eq(users.id, row.userId));
  const [inserted] = await db
    .insert(comments)
    .values({
      patientId: row.patientId,
      mdOfficeId: row.mdOfficeId,
      prescriptionId: row.prescriptionId,
      authorUserId: row.userId,
      authorName: author?.name ?? 'Office',
      fromPatient: false,
      body: row.body,
    })
    .returning();
  return inserted;
}

/** Mentions among `ids` that belong to the user's offices (locked for the update). */
export async function mentionsInScope(db: Executor, userId: string, ids: string[]) {
  return db
    .select({ id: commentMentions.id })
    .from(commentMentions)
    .where(and(inArray(commentMentions.id, ids), sql`${commentMentions.mdOfficeId} in (${patientScopeSql(userId)})`))
    .for('update');
}

export async function markMentionsRead(db: Executor, userId: string, ids: string[], at: Date): Promise<number> {
  const rows = await db
    .update(commentMentions)
    .set({ readAt: at, readByUserId: userId })
    .where(and(inArray(commentMentions.id, ids), isNull(commentMentions.readAt)))
    .returning({ id: commentMentions.id });
  return rows.length;
}
