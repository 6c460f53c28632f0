/**
 * Audit completeness (issue 18): every route that reads or writes patient data leaves exactly one audit row
 * for the request, naming who (the signed-in user), what (an action) and which patient or prescription (the
 * entity, or its ids in the details), also when the call is refused inside the practice (403) — the attempt
 * is what an auditor asks about; and the row is linked to its patient, so the privacy officer's patient access report
 * (issue 49) finds it. The route list comes from the shared route table, so a new patient-data
 * route is walked as soon as it has a row there.
 */
import { generateRequestId, type Tokens } from '@hcp/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { arrayParam } from '../src/db/client.ts';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs } from './support/auth.ts';
import { TEST_NOW } from './support/constants.ts';
import { type Fixture, ROWS, RULES, setUpRouteTable, type Who } from './support/route-table.ts';

/** Lists of patient data (answered to everyone, each with their own practices' patients). */
const PATIENT_LISTS = new Set([
  'GET /api/mdo/v2/users/{userId}/action-needed',
  'GET /api/mdo/v2/users/{userId}/action-queue',
  'GET /api/mdo/v1/users/{userId}/rx-list',
  'GET /api/mdo/v1/users/{userId}/patients-search',
  'GET /api/mdo/v2/users/{userId}/doctor-list-search',
  'POST /api/mdo/v1/users/{userId}/prescriptions',
]);
const PATIENT_RULES: unknown[] = [RULES.patientRead, RULES.officeWrite, RULES.sign, RULES.bulkSign];

let t: TestApp;
let tokens: Record<Who, Tokens>;
let fixture: Fixture;
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW });
  ({ tokens, fixture } = await setUpRouteTable(t));
});
afterAll(() => t.close());

const idsOf = async (query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id).sort();
/** The patients an answer shows: every id in it that is a patient's, or a prescription's (then its patient). */
const patientsIn = (body: string) => {
  const uuids = arrayParam(
    [...new Set(body.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi) ?? [])],
    'uuid',
  );
  return idsOf(sql`select id from patients where id = any(${uuids})
                   union select patient_id from prescriptions where id = any(${uuids})`);
};
const linkedPatients = (auditId: number) => idsOf(sql`select patient_id as id from audit_subjects where audit_id = ${auditId}`);

const patientRows = () => ROWS.filter((r) => PATIENT_RULES.includes(r.expect) || PATIENT_LISTS.has(`${r.method} ${r.path}`));

describe('audit completeness', () => {
  it('finds the patient-data routes in the route table', () => {
    expect(patientRows().length).toBeGreaterThanOrEqual(18);
  });

  for (const who of ['prescriber', 'staff', 'support'] as const) {
    it(`writes one audit row naming ${who}, the action and the patient for every patient-data route`, async () => {
      const missing: string[] = [];
      const listsShowingPatients = new Set<string>();
      const ids = fixture.ids.own;
      const named = new Set([ids.patientId, ids.mentionId, ...Object.values(ids.rx)]);
      for (const row of patientRows()) {
        if (row.expect(who, 'own') === 404) continue;
        const requestId = generateRequestId();
        // The resource the row names (a rule a delete removed for the user before).
        await row.prepare?.(ids, t.database.db);
        const body = row.body?.(fixture, who, ids);
        const res = await injectAs(t.app, tokens[who], {
          method: row.method,
          url: row.url(fixture, who, ids),
          headers: { 'x-request-id': requestId },
          ...(body !== undefined ? { payload: body as Record<string, unknown> } : {}),
        });
        const rows = await t.database.db
          .select()
          .from(s.auditLog)
          .where(and(eq(s.auditLog.requestId, requestId), eq(s.auditLog.actorUserId, tokens[who].userID)));
        const label = `${row.method} ${row.path} (${res.statusCode})`;
        if (rows.length !== 1) {
          missing.push(`${label}: ${rows.length} audit rows`);
          continue;
        }
        const [audit] = rows;
        if (!audit?.action) missing.push(`${label}: no action`);
        // A single patient's or prescription's call names it; a list names what was asked (its query) and, since
        // issue 49, exactly the patients its answer shows.
        if (PATIENT_LISTS.has(`${row.method} ${row.path}`)) {
          if (res.statusCode < 300 && audit) {
            const [shown, linked] = await Promise.all([patientsIn(res.body), linkedPatients(audit.id)]);
            if (shown.length > 0) listsShowingPatients.add(row.path);
            if (shown.join() !== linked.join())
              missing.push(`${label}: the answer shows ${shown.length} patients, the audit row links ${linked.length}`);
          }
        } else {
          const text = `${audit?.entityId ?? ''} ${JSON.stringify(audit?.details ?? {})}`;
          if (![...named].some((id) => text.includes(id)))
            missing.push(`${label}: the audit row names no patient or prescription`);
          // Issue 49: and the patient access report finds it (the trigger linked the row to its patient).
          if ((await linkedPatients(audit?.id ?? -1)).length === 0)
            missing.push(`${label}: no patient is linked to the audit row (audit_subjects)`);
        }
      }
      expect(missing).toEqual([]);
      // The comparison saw real answers: Action Needed, the queue, the Rx list and the search show patients here.
      expect(listsShowingPatients.size).toBeGreaterThanOrEqual(4);
    });
  }
});
