/**
 * Action Needed under load, on the large seed (10,000 patients, 100,000 prescriptions): the real
 * endpoint (sign-in guard, deny-list check, validation, logging, audit row, one SQL statement) against a
 * bare node:http server answering the same URL with one hand-written json_agg query on the same
 * database. Both answers are checked to be the same JSON first. Runs on PGlite and, when reachable, on
 * PostgreSQL (a scratch database created next to DATABASE_URL's, default postgres://postgres@127.0.0.1:5432/test).
 */

import { mkdtemp } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import nodePath from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { type DatabaseHandle, wrapPglite, wrapPool } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/index.ts';
import { createScratchDatabase } from '../../apps/server/test/support/services.ts';
import { actionQueueBench } from './action-queue.ts';
import { appealsBench } from './appeals.ts';
import { benchSignIn, startBenchApp } from './bench-app.ts';
import { interleavedRatio, load, quantile, timeRequests } from './measure.ts';

/** The baseline's query, written by hand: same scope, filters, order and fields as the endpoint. */
const BASELINE_SQL = `
with scope as (
  select m.md_office_id as id from users u join office_members m on m.md_staff_id = u.md_staff_id
  join md_offices o on o.id = m.md_office_id and o.tenant_id = u.tenant_id and o.deleted_at is null
  where u.id = $1 and u.disabled_at is null and u.role = 'mdo.user'
  union
  select o.id from users u join md_offices o on o.id = u.md_office_id and o.tenant_id = u.tenant_id and o.deleted_at is null
  where u.id = $1 and u.disabled_at is null and u.role = 'mdo.user'
), rx as (
  select p.*, (p.needs_refill_auth and (p.refill_postponed_until is null or p.refill_postponed_until <= $2::date)) as due
  from prescriptions p where p.md_office_id = any(array(select id from scope))
), picked as (
  select * from rx where due or phone_exception or hcp_action_required
    or prior_auth_status in ('PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY','PRIOR_AUTH_CHART_NOTES_NEEDED','PRIOR_AUTH_ICD10_NEEDED','PRIOR_AUTH_REQUIRED','PRIOR_AUTH_RENEWAL_DUE')
    or substitution_status like 'SUBSTITUTION_PENDING_MD_SELECTION_%'
), by_patient as (
  select prescriber_id, patient_id, json_agg(json_build_object(
    'id', id, 'practiceId', md_office_id, 'patientID', patient_id, 'needsRefillAuth', due, 'phoneException', phone_exception,
    'substitutionStatus', substitution_status, 'priorAuthStatus', prior_auth_status, 'priorAuthMethod', prior_auth_method,
    'hcpActionRequired', hcp_action_required, 'dispensedNdc', dispensed_ndc, 'prescribedNdc', prescribed_ndc,
    'drugName', drug_name, 'strength', strength, 'quantity', quantity, 'daysSupply', days_supply, 'refills', refills,
    'sig', sig, 'prescribedDate', to_char(prescribed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'),
    'lastProcessedDate', to_char(last_processed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'), 'orderNumber', order_number,
    'orderStatus', order_status, 'price', price::float8,
    'alternativeMeds', case when substitution_status like 'SUBSTITUTION_PENDING_MD_SELECTION_%' then coalesce(
      to_json(offered_alternatives), (select json_agg(a.alternative_name order by a.rank) from drug_alternatives a where a.drug_name = picked.drug_name), '[]'::json)
      else '[]'::json end,
    'lastFilledOn', to_char(last_filled_on, 'YYYY-MM-DD'), 'refillsRemaining', refills_remaining,
    'prepared', (select json_build_object('decision', pd.decision, 'preparedByName', pu.display_name,
      'preparedAt', to_char(pd.prepared_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
      from prepared_decisions pd join users pu on pu.id = pd.prepared_by
      where pd.prescription_id = picked.id and pd.prescription_version = picked.version),
    'faxByRule', (select r.name from standing_rules r where r.id = picked.fax_rule_id),
    'controlled', (select json_build_object('schedule', dp.dea_schedule) from drug_products dp
      where dp.ndc in (picked.prescribed_ndc, picked.dispensed_ndc) and dp.is_controlled limit 1)
  ) order by prescribed_at, id) as prescriptions
  from picked group by prescriber_id, patient_id
), by_doctor as (
  select b.prescriber_id, json_agg(json_build_object('id', pt.id, 'firstName', pt.first_name, 'lastName', pt.last_name,
    'dob', to_char(pt.dob, 'YYYY-MM-DD'), 'phoneNumbers', to_json(pt.phone_numbers), 'prescriptions', b.prescriptions)
    order by lower(pt.last_name), lower(pt.first_name), pt.id) as patients
  from by_patient b join patients pt on pt.id = b.patient_id group by b.prescriber_id
)
select json_build_object('doctors', coalesce(json_agg(json_build_object('doctorId', d.id, 'name', d.first_name || ' ' || d.last_name,
  'role', d.role, 'patients', x.patients) order by lower(d.last_name), lower(d.first_name), d.id), '[]'::json))::text as body
from by_doctor x join md_staff d on d.id = x.prescriber_id`;

/**
 * The same query writing the read's audit row as the endpoint does (a data-modifying CTE naming the patients shown,
 * which the subjects trigger links one row each), to tell that cost apart.
 */
const AUDITED_BASELINE_SQL = BASELINE_SQL.replace(
  '), by_doctor as (',
  `), audit as (
  insert into audit_log (actor_user_id, action, entity_type, details)
  select $1, 'action-needed.read', 'action-needed',
    jsonb_build_object('patientIds', coalesce((select jsonb_agg(distinct patient_id) from by_patient), '[]'::jsonb))
  returning id
), by_doctor as (`,
);

type Query = (text: string, params: unknown[]) => Promise<{ rows: { body: string }[] }>;

const latencies = (url: string, headers: Record<string, string>, runs: number) =>
  timeRequests(runs, () => fetch(url, { headers }));

async function benchOn(label: string, database: DatabaseHandle, query: Query, seconds: number) {
  const started = performance.now();
  await database.migrate();
  await seedDemoData(database.db, { size: 'large' });
  console.log(`  (${label}: large seed ready in ${((performance.now() - started) / 1000).toFixed(0)} s)`);
  const todayIso = new Date().toISOString().slice(0, 10);

  // Appeal attachments go to a scratch folder, never into the working tree.
  const dataDir = await mkdtemp(nodePath.join(os.tmpdir(), 'hcp-bench-data-'));
  const { app, base: appBase } = await startBenchApp(database, { DATA_DIR: dataDir });
  const jwtToken = await benchSignIn(appBase, 'dr.morgan@demo.hcp');
  const path = `/api/mdo/v2/users/${jwtToken.userID}/action-needed?actionType=ACTION_NEEDED_ALL`;
  const headers = { authorization: `Bearer ${jwtToken.accessToken}`, 'x-user-id': jwtToken.userID };

  const bare = http.createServer(async (req, res) => {
    const userId = /\/users\/([^/]+)\/action-needed/.exec(req.url ?? '')?.[1];
    const audited = req.url?.includes('audited=1');
    const { rows } = await query(audited ? AUDITED_BASELINE_SQL : BASELINE_SQL, [userId, todayIso]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(rows[0]?.body ?? '{"doctors":[]}');
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareBase = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  const ourBody = await (await fetch(`${appBase}${path}`, { headers })).json();
  const bareBody = await (await fetch(`${bareBase}${path}`)).json();
  if (!isDeepStrictEqual(ourBody, bareBody)) {
    const [a, b] = [JSON.stringify(ourBody), JSON.stringify(bareBody)];
    const at = [...a].findIndex((c, i) => c !== b[i]);
    throw new Error(
      `${label}: the endpoint and the baseline answer differently at ${at}: ${a.slice(at - 80, at + 80)} / ${b.slice(at - 80, at + 80)}`,
    );
  }
  const doctors = (ourBody as { doctors: { patients: { prescriptions: unknown[] }[] }[] }).doctors;
  const patients = doctors.reduce((n, d) => n + d.patients.length, 0);
  const prescriptions = doctors.reduce((n, d) => n + d.patients.reduce((m, p) => m + p.prescriptions.length, 0), 0);
  const bytes = JSON.stringify(ourBody).length;

  const before = database.stats.queries;
  await fetch(`${appBase}${path}`, { headers }).then((r) => r.arrayBuffer());
  const queriesPerRequest = database.stats.queries - before;

  const baseLatency = await latencies(`${bareBase}${path}`, {}, 100);
  const ourLatency = await latencies(`${appBase}${path}`, headers, 100);
  const round = Math.max(1, Math.round(seconds / 2));
  await interleavedRatio(
    `action-needed (${label})`,
    'GET action-needed req/s',
    'bare node:http + one json_agg query',
    5,
    async () => (await load(`${appBase}${path}`, round, 10, headers)).requestsPerSecond,
    async () => (await load(`${bareBase}${path}`, round)).requestsPerSecond,
    (a, b) =>
      `${a.toFixed(0)} vs ${b.toFixed(0)} req/s; ` +
      `p50 ${ourLatency.p50.toFixed(1)} vs ${baseLatency.p50.toFixed(1)} ms, p95 ${ourLatency.p95.toFixed(1)} vs ${baseLatency.p95.toFixed(1)} ms; ` +
      `${queriesPerRequest} SQL statements per request; answer ${doctors.length} doctors, ${patients} patient cards, ${prescriptions} prescriptions, ${(bytes / 1024).toFixed(0)} KB`,
  );
  await interleavedRatio(
    `action-needed, audited baseline (${label})`,
    'GET action-needed req/s',
    'bare node:http + the same query writing the same audit row',
    5,
    async () => (await load(`${appBase}${path}`, round, 10, headers)).requestsPerSecond,
    async () => (await load(`${bareBase}${path}&audited=1`, round)).requestsPerSecond,
    (a, b) =>
      `${a.toFixed(0)} vs ${b.toFixed(0)} req/s: what the stack (session, deny-list, routing, reply) costs beyond the audited read`,
  );
  await actionQueueBench(label, database, query, appBase, headers, jwtToken.userID, seconds);
  if (process.env.BENCH_ONLY === 'action-queue') {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await app.close();
    bare.close();
    return;
  }
  await patientSearchLatency(label, appBase, headers, jwtToken.userID);
  const admin = await benchSignIn(appBase, 'admin@demo.hcp');
  const adminHeaders = { authorization: `Bearer ${admin.accessToken}`, 'x-user-id': admin.userID };
  await patientSearchLatency(`${label}, admin: whole tenant`, appBase, adminHeaders, admin.userID);
  await manageCommsAndCatalogueLatency(label, appBase, adminHeaders, headers);
  await appealsBench(label, appBase, database);

  // Let autocannon's last in-flight requests finish before the database goes away.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  await app.close();
  bare.close();
}

/**
 * A search endpoint's p50/p95 over typical queries, against the same server's /readyz as the baseline of an
 * HTTP round trip with one trivial query.
 */
async function searchLatency(
  label: string,
  subject: string,
  base: string,
  headers: Record<string, string>,
  urlOf: (text: string) => string,
  texts: string[],
) {
  const searches = async () => {
    const times: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      for (const text of texts) {
        const start = performance.now();
        const res = await fetch(`${base}${urlOf(text)}`, { headers });
        if (res.status !== 200) throw new Error(`${subject} answered ${res.status}`);
        await res.arrayBuffer();
        times.push(performance.now() - start);
      }
    }
    return times;
  };
  const all: number[] = [];
  await interleavedRatio(
    label,
    `${subject} p95`,
    'GET /readyz p95 (one trivial query)',
    5,
    async () => {
      const times = await searches();
      all.push(...times);
      return quantile(times, 0.95);
    },
    async () => (await latencies(`${base}/readyz`, {}, 20)).p95,
    (_, readyz) =>
      `p50 ${quantile(all, 0.5).toFixed(1)} ms, p95 ${quantile(all, 0.95).toFixed(1)} ms over ${all.length} searches ` +
      `(the warm-up included) vs /readyz p95 ${readyz.toFixed(1)} ms`,
  );
}

/** Patient search: a 3-letter name prefix, first + last name, a DOB typed MMDDYY or MM/DD/YYYY, phone digits. */
const patientSearchLatency = (label: string, base: string, headers: Record<string, string>, userId: string) =>
  searchLatency(
    `patient-search (${label})`,
    'GET patients-search',
    base,
    headers,
    (text) => `/api/mdo/v1/users/${userId}/patients-search?searchText=${encodeURIComponent(text)}&limit=25`,
    ['smi', 'mar', 'john smith', '040570', '01/15/1962', '6145550', 'lee'],
  );

/** Manage Communications (admin, whole tenant) and the Prescribe catalogue, on the same large seed. */
async function manageCommsAndCatalogueLatency(
  label: string,
  base: string,
  admin: Record<string, string>,
  prescriber: Record<string, string>,
) {
  const texts = ['', 'clinic', 'medical group', 'smith', '1234', 'morgan family'];
  await searchLatency(
    `practice-search (${label})`,
    'GET md-offices-search',
    base,
    admin,
    (t) => `/api/mdo/v1/md-offices-search?searchText=${encodeURIComponent(t)}&offset=0&limit=25`,
    texts,
  );
  await searchLatency(
    `staff-search (${label})`,
    'GET staff',
    base,
    admin,
    (t) => `/api/mdo/v1/staff?searchText=${encodeURIComponent(t)}&offset=0&limit=25`,
    texts,
  );
  await searchLatency(
    `drug-catalogue (${label})`,
    'GET drug-catalogue',
    base,
    prescriber,
    (t) => `/api/mdo/v1/drug-catalogue?searchText=${encodeURIComponent(t)}`,
    ['xif', 'lotemax', '65649', 'tab', 'ol'],
  );
}

export async function actionNeededBench(seconds: number): Promise<void> {
  const client = new PGlite();
  await benchOn('PGlite', wrapPglite(client), (text, params) => client.query(text, params), seconds);
  await client.close();

  const adminUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const scratch = await createScratchDatabase(adminUrl, 'hcp_bench').catch(() => null);
  if (!scratch) {
    console.log(`action-needed (PostgreSQL): skipped, no PostgreSQL at ${adminUrl}`);
    return;
  }
  const pool = new pg.Pool({ connectionString: scratch.url, max: 10 });
  try {
    await benchOn('PostgreSQL', wrapPool(pool), (text, params) => pool.query(text, params), seconds);
  } finally {
    await pool.end().catch(() => undefined);
    await scratch.drop();
  }
}
