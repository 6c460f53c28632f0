/**
 * `npm run bench:audit` (PostgreSQL; DATABASE_URL, default the local one): issue 49's two figures.
 *
 * 1. The patient access report over a year of a large tenant. What the report reads is the audit trail, so the trail
 *    is grown to AUDIT_BENCH_ROWS rows (default 5,000,000: a year of a 1M-prescription tenant at five audited reads
 *    and writes per prescription) over 200,000 patients, and one real patient of Dr. Morgan's practice gets 1,000 of
 *    them. p95 of the first and the last page of that patient's year, against the admin's own user details (the
 *    cheapest signed-in read) in interleaved rounds. Budget: p95 under 300 ms.
 * 2. What linking each audit row to its patient (the audit_subjects trigger) adds to a decision: refill denials with
 *    the trigger on against the same with it off, interleaved. Sealing runs apart, once a minute, and adds nothing
 *    to a decision. Budget: under 10 %.
 */
import { generateRequestId } from '@hcp/contract';
import { authHeadersOf, benchSignIn, seededScratchPostgres, startBenchApp } from './bench-app.ts';
import { interleavedRatio, quantile, timeRequests } from './measure.ts';

const ROWS = Number(process.env.AUDIT_BENCH_ROWS ?? 5_000_000);
const PATIENT_ROWS = 1000;
const RUNS = 40;
const ROUNDS = 7;

const { scratch, pool, database } = await seededScratchPostgres('hcp_bench_audit');
try {
  const { app, base } = await startBenchApp(database);
  const morgan = await benchSignIn(base, 'dr.morgan@demo.hcp');
  const admin = await benchSignIn(base, 'admin@demo.hcp');
  const headersOf = (t: { accessToken: string; userID: string }) => ({
    ...authHeadersOf(t),
    'content-type': 'application/json',
  });

  // --- 2. a decision with and without the patient link (first, on the small trail) ---
  const { rows: refills } = await pool.query<{ id: string }>(
    `update prescriptions set needs_refill_auth = true, refill_postponed_until = null,
        prescriber_id = (select md_staff_id from users where email = 'dr.morgan@demo.hcp')
      where id in (select rx.id from prescriptions rx join users u on u.email = 'dr.morgan@demo.hcp'
                    join office_members m on m.md_staff_id = u.md_staff_id and m.md_office_id = rx.md_office_id
                    where rx.prior_auth_status is null and rx.substitution_status is null and not rx.phone_exception
                    limit 400)
      returning id`,
  );
  // A round decides each request once; the next round asks for them again (outside the timed part).
  const perRound = Math.min(40, refills.length);
  if (perRound < 10) throw new Error(`audit bench: only ${refills.length} refill requests to decide`);
  let next = 0;
  const askAgain = async () => {
    await pool.query('update prescriptions set needs_refill_auth = true, refill_postponed_until = null where id = any($1)', [
      refills.slice(0, perRound).map((r) => r.id),
    ]);
    next = 0;
  };
  const decide = async () => {
    const id = refills[next++ % perRound]?.id;
    if (!id) throw new Error('audit bench: out of refill requests');
    const start = performance.now();
    const res = await fetch(`${base}/api/mdo/v1/prescriptions/${id}/refills-denied`, {
      method: 'POST',
      headers: { ...headersOf(morgan), 'x-request-id': generateRequestId() },
      body: JSON.stringify({ reason: 'NEED_OFFICE_VISIT', senderName: 'Bench' }),
    });
    if (!res.ok) throw new Error(`audit bench: decision ${res.status} ${await res.text()}`);
    await res.arrayBuffer();
    return performance.now() - start;
  };
  const decisions = async (n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i += 1) times.push(await decide());
    return quantile(times, 0.5);
  };
  const linked: number[] = [];
  const unlinked: number[] = [];
  await interleavedRatio(
    'audit-link-on-decision (PostgreSQL)',
    'refill denial, audit row linked to its patient, p50',
    'the same without the link, p50',
    ROUNDS,
    async () => {
      await pool.query('alter table audit_log enable trigger audit_log_subjects');
      await askAgain();
      const t = await decisions(perRound);
      linked.push(t);
      return t;
    },
    async () => {
      await pool.query('alter table audit_log disable trigger audit_log_subjects');
      await askAgain();
      const t = await decisions(perRound);
      unlinked.push(t);
      return t;
    },
    (s, b) => `${s.toFixed(2)} vs ${b.toFixed(2)} ms a decision, ${perRound} a round (budget: under +10 %)`,
  );
  await pool.query('alter table audit_log enable trigger audit_log_subjects');

  // --- 1. the patient access report over a year of a large trail ---
  const { rows: target } = await pool.query<{ id: string }>(
    `select p.id from patients p join users u on u.md_office_id = p.md_office_id where u.email = 'dr.morgan@demo.hcp' limit 1`,
  );
  const patientId = target[0]?.id as string;
  const started = performance.now();
  // Bulk rows name synthetic patients (the link is written directly, as the trigger would, without resolving each).
  await pool.query('alter table audit_log disable trigger audit_log_subjects');
  const BATCH = 500_000;
  for (let done = 0; done < ROWS; done += BATCH) {
    const n = Math.min(BATCH, ROWS - done);
    await pool.query(
      `with people as (select array_agg(id) as ids from (select id from users where role = 'mdo.user' limit 20) u),
       rows as (
         insert into audit_log (actor_user_id, action, entity_type, entity_id, ip, request_id, details, created_at)
         select people.ids[1 + (g % array_length(people.ids, 1))], 'patients.read', 'patient',
                md5('bench-patient-' || (g % 200000))::uuid::text, '10.0.' || (g % 250) || '.1', 'bench-' || g, '{}'::jsonb,
                now() - interval '365 days' + (g::double precision / $2) * interval '365 days'
           from generate_series($1::bigint + 1, $1::bigint + $3) g cross join people
         returning id, entity_id, created_at)
       insert into audit_subjects (audit_id, patient_id, created_at) select id, entity_id::uuid, created_at from rows`,
      [done, ROWS, n],
    );
  }
  await pool.query(
    `with rows as (
       insert into audit_log (actor_user_id, action, entity_type, entity_id, ip, request_id, details, created_at)
       select (select id from users where email = 'staff.lee@demo.hcp'), 'patients.read', 'patient', $1, '10.1.0.1',
              'bench-target-' || g, '{}'::jsonb, now() - interval '365 days' + g * interval '8 hours 45 minutes'
         from generate_series(1, $2::int) g
       returning id, created_at)
     insert into audit_subjects (audit_id, patient_id, created_at) select id, $1::uuid, created_at from rows`,
    [patientId, PATIENT_ROWS],
  );
  await pool.query('alter table audit_log enable trigger audit_log_subjects');
  await pool.query('analyze audit_log');
  await pool.query('analyze audit_subjects');
  const grown = ((performance.now() - started) / 1000).toFixed(0);
  const { rows: size } = await pool.query<{ n: string }>('select count(*) as n from audit_log');

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const year = `from=${day(-365)}&to=${day(0)}`;
  const report = (page: number) => `${base}/api/mdo/v1/audit-trail/patient-access?patientId=${patientId}&${year}&page=${page}`;
  const lastPage = Math.ceil(PATIENT_ROWS / 50);
  const firstPages: number[] = [];
  const lastPages: number[] = [];
  await interleavedRatio(
    `audit-patient-access (PostgreSQL, ${Number(size[0]?.n).toLocaleString('en-US')} audit rows)`,
    "a patient's year, first page, p95",
    "the admin's user details, p95",
    ROUNDS,
    async () => {
      const first = await timeRequests(RUNS, () => fetch(report(1), { headers: headersOf(admin) }));
      const last = await timeRequests(10, () => fetch(report(lastPage), { headers: headersOf(admin) }));
      firstPages.push(...first.times);
      lastPages.push(...last.times);
      return first.p95;
    },
    async () =>
      (
        await timeRequests(RUNS, () =>
          fetch(`${base}/api/mdo/v1/users/${admin.userID}/mdo-user-details`, { headers: headersOf(admin) }),
        )
      ).p95,
    () =>
      `first page p95 ${quantile(firstPages, 0.95).toFixed(1)} ms, last page (${lastPage}) p95 ${quantile(lastPages, 0.95).toFixed(1)} ms ` +
      `over ${PATIENT_ROWS} rows of the patient in a year (budget: p95 under 300 ms; trail grown in ${grown} s)`,
  );
  // The review lists over a month of the same trail: what a privacy officer opens each week.
  const month = `from=${day(-30)}&to=${day(0)}&status=all`;
  const unusual = await timeRequests(5, () =>
    fetch(`${base}/api/mdo/v1/audit-trail/unusual-access?${month}`, { headers: headersOf(admin) }),
  );
  const windows = await timeRequests(5, () =>
    fetch(`${base}/api/mdo/v1/audit-trail/support-windows?${month}`, { headers: headersOf(admin) }),
  );
  console.log(
    `audit-review-lists (PostgreSQL, same trail): unusual access over 30 days p95 ${unusual.p95.toFixed(0)} ms (p50 ${unusual.p50.toFixed(0)}), ` +
      `support windows over 30 days p95 ${windows.p95.toFixed(1)} ms (5 requests each; no baseline: read the milliseconds)`,
  );
  await app.close();
} finally {
  await database.close().catch(() => undefined);
  await scratch.drop();
}
