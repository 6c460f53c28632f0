/**
 * Live updates (issue 20): writes that change what a practice sees (a decision, a pharmacy's request or
 * withdrawal, a patient's message) say so on commit with a NOTIFY naming the practice; every instance's live hub
 * passes it to the open streams of the people who may see that practice.
 */
import { type SQL, sql } from 'drizzle-orm';
import { arrayParam, type Executor } from '../db/client.ts';

export const ITEMS_CHANNEL = 'hcp_items';

/**
 * The practice of this prescription has new or resolved items (sent when the caller's transaction commits);
 * `alsoWake` names one more channel to notify in the same statement (a decision wakes the webhook workers too).
 */
export async function notifyPracticeOfPrescription(db: Executor, prescriptionId: string, alsoWake?: string): Promise<void> {
  const also = alsoWake ? sql`, pg_notify(${alsoWake}, '')` : sql``;
  await db.execute(
    sql`select pg_notify(${ITEMS_CHANNEL}, md_office_id::text)${also} from prescriptions where id = ${prescriptionId}`,
  );
}

/** The NOTIFY of a practice's new or resolved items, for a statement that knows the practice (`office`). */
export const practiceItemsNotifySql = (office: SQL) => sql`pg_notify(${ITEMS_CHANNEL}, ${office}::text)`;

/** The practices of these prescriptions have new or resolved items: one NOTIFY per practice, one statement. */
export async function notifyPracticesOfPrescriptions(db: Executor, prescriptionIds: readonly string[]): Promise<void> {
  if (prescriptionIds.length === 0) return;
  await db.execute(sql`select pg_notify(${ITEMS_CHANNEL}, office) from (select distinct md_office_id::text as office
    from prescriptions where id = any(${arrayParam(prescriptionIds, 'uuid')})) practices`);
}

/** The practice of this patient has a new message. */
export async function notifyPracticeOfPatient(db: Executor, patientId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${ITEMS_CHANNEL}, md_office_id::text) from patients where id = ${patientId}`);
}
