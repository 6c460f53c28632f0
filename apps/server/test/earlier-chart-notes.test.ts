/**
 * Reusable chart notes (issue 23): the notes a practice sent for a patient's earlier prior authorization are offered
 * for the next one — the same patient's only, never one taken back (undone), audited as a read.
 */
import { generateRequestId } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let morgan: Awaited<ReturnType<typeof signIn>>;
const db = () => t.database.db;

const earlier = (id: string) =>
  injectAs(t.app, morgan, { method: 'GET', url: `/api/mdo/v1/prescriptions/${id}/earlier-chart-notes` });

beforeAll(async () => {
  t = await buildTestApp();
  morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
});
afterAll(() => t.close());

describe('earlier chart notes', () => {
  it('offers the notes sent for the same patient, newest first, and no other patient’s', async () => {
    const rows = (await db().execute(sql`select rx.id, rx.patient_id as "patientId" from prescriptions rx
        join users u on u.md_office_id = rx.md_office_id
        where u.email = 'dr.morgan@demo.hcp' and rx.prior_auth_status = 'PRIOR_AUTH_CHART_NOTES_NEEDED'
        order by rx.id limit 1`)) as unknown as { rows: { id: string; patientId: string }[] };
    const pa = rows.rows[0] as { id: string; patientId: string };
    // A second prescription of the same patient, and one of another patient, both of the practice.
    const [same] = await db()
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.patientId, pa.patientId), sql`${s.prescriptions.id} <> ${pa.id}::uuid`))
      .limit(1);
    const other = (await db().execute(sql`select rx.id from prescriptions rx join prescriptions mine on mine.id = ${pa.id}::uuid
        where rx.md_office_id = mine.md_office_id and rx.patient_id <> mine.patient_id limit 1`)) as unknown as {
      rows: { id: string }[];
    };

    const before = (await earlier(pa.id)).json().records as unknown[];
    const note = 'E11.9; metformin 1 g twice daily tried 6 months, A1c 8.4';
    const sent = await injectAs(t.app, morgan, {
      method: 'POST',
      url: `/api/mdo/v1/prescriptions/${pa.id}/prior-auth/chart-notes-sent`,
      headers: { 'x-request-id': generateRequestId() },
      payload: { chartNote: note, isICD10TriedAndFailed: true },
    });
    expect(sent.statusCode, sent.body).toBe(200);

    const res = await earlier(same?.id ?? pa.id);
    expect(res.statusCode).toBe(200);
    const records = res.json().records as { prescriptionId: string; chartNote: string; isICD10TriedAndFailed: boolean }[];
    expect(records.length).toBe(before.length + 1);
    expect(records[0]).toMatchObject({ prescriptionId: pa.id, chartNote: note, isICD10TriedAndFailed: true });
    expect(JSON.stringify((await earlier(other.rows[0]?.id as string)).json())).not.toContain(note);

    // Taken back: no longer offered.
    await db().execute(sql`update prescription_events set undone_at = now()
      where prescription_id = ${pa.id}::uuid and type = 'PRIOR_AUTH_CHART_NOTES_SENT'`);
    expect(JSON.stringify((await earlier(pa.id)).json())).not.toContain(note);

    const audits = await db()
      .select()
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'prescription.earlier-chart-notes.read'), eq(s.auditLog.actorUserId, morgan.userID)));
    expect(audits.length).toBeGreaterThanOrEqual(3);
    expect(audits[0]?.details).toMatchObject({ patientId: pa.patientId });
  });
});
