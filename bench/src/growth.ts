/**
 * `npm run bench:growth` (PostgreSQL; DATABASE_URL, default the local one): the growth curve of issue 24. One scratch
 * database starts from the small demo seed and grows to 10,000, 100,000 and 1,000,000 prescriptions by copying another
 * practice of the main brand (offices, patients and prescriptions, in SQL), so Dr. Morgan's practice keeps its size
 * while the tenant grows. At each size: p95 of a practice user's Action Needed, Rx list and patient search, and of the
 * whole-tenant admin's patient search and Rx list. Not part of `npm run bench` (growing to 1M takes minutes);
 * docs/performance.md holds the table. GROWTH_SIZES=10000,100000 picks other sizes; GROWTH_KEEP=1 keeps the database
 * (its name is printed) to EXPLAIN the lists at the largest size.
 */
import type pg from 'pg';
import { authHeadersOf, benchSignIn, seededScratchPostgres, startBenchApp } from './bench-app.ts';
import { timeRequests } from './measure.ts';

const SIZES = (process.env.GROWTH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const RUNS = 30;

/** The columns of a table other than the ones a copy sets itself. */
async function columnsOf(pool: pg.Pool, table: string, except: string[]): Promise<string[]> {
  const { rows } = await pool.query<{ column_name: string }>(
    `select column_name from information_schema.columns where table_name = $1 and table_schema = 'public' order by ordinal_position`,
    [table],
  );
  return rows.map((r) => r.column_name).filter((c) => !except.includes(c));
}

const p95Of = async (url: string, headers: Record<string, string>) =>
  (await timeRequests(RUNS, () => fetch(url, { headers }))).p95;

const { scratch, pool, database } = await seededScratchPostgres('hcp_growth');
try {
  const { app, base } = await startBenchApp(database);
  const morgan = await benchSignIn(base, 'dr.morgan@demo.hcp');
  const boss = await benchSignIn(base, 'admin@demo.hcp');
  const as = authHeadersOf;

  // The practice copied: the main brand's office with most prescriptions that Dr. Morgan does not belong to.
  const { rows: template } = await pool.query<{ id: string; prescriptions: number }>(
    `select o.id, count(rx.id)::int as prescriptions
       from md_offices o join tenants t on t.id = o.tenant_id and t.key = 'main'
       join prescriptions rx on rx.md_office_id = o.id
      where o.id not in (select md_office_id from users where email = 'dr.morgan@demo.hcp' and md_office_id is not null)
        and o.id not in (select m.md_office_id from office_members m join users u on u.md_staff_id = m.md_staff_id
                          where u.email = 'dr.morgan@demo.hcp')
      group by o.id order by count(rx.id) desc limit 1`,
  );
  const office = template[0] as { id: string; prescriptions: number };
  const officeColumns = await columnsOf(pool, 'md_offices', ['id', 'name']);
  const patientColumns = await columnsOf(pool, 'patients', ['id', 'md_office_id']);
  const rxColumns = await columnsOf(pool, 'prescriptions', ['id', 'patient_id', 'md_office_id']);
  let copies = 0;

  async function growTo(target: number) {
    const { rows } = await pool.query<{ n: number }>('select count(*)::int as n from prescriptions');
    const missing = target - (rows[0]?.n ?? 0);
    if (missing <= 0) return;
    const offices = Math.ceil(missing / office.prescriptions);
    const client = await pool.connect();
    try {
      await client.query('begin');
      await client.query(
        `create temp table office_map on commit drop as select $1::int + g as n, gen_random_uuid() as id from generate_series(1, $2::int) g`,
        [copies, offices],
      );
      await client.query(
        `insert into md_offices (id, name, ${officeColumns.join(', ')})
         select m.id, o.name || ' (growth ' || m.n || ')', ${officeColumns.map((c) => `o.${c}`).join(', ')}
           from md_offices o cross join office_map m where o.id = $1`,
        [office.id],
      );
      await client.query(
        `create temp table patient_map on commit drop as
         select m.id as office_id, p.id as old_id, gen_random_uuid() as new_id
           from patients p cross join office_map m where p.md_office_id = $1`,
        [office.id],
      );
      await client.query(
        `insert into patients (id, md_office_id, ${patientColumns.join(', ')})
         select pm.new_id, pm.office_id, ${patientColumns.map((c) => `p.${c}`).join(', ')}
           from patients p join patient_map pm on pm.old_id = p.id`,
      );
      await client.query(
        `insert into prescriptions (id, patient_id, md_office_id, ${rxColumns.join(', ')})
         select gen_random_uuid(), pm.new_id, pm.office_id, ${rxColumns.map((c) => `rx.${c}`).join(', ')}
           from prescriptions rx join patient_map pm on pm.old_id = rx.patient_id where rx.md_office_id = $1`,
        [office.id],
      );
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
    copies += offices;
    await pool.query('analyze');
  }

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const lines: string[] = [];
  console.log(
    'growth: prescriptions | patients | practice user p95 (ms): Action Needed, Rx list 30 days, patient search | admin p95 (ms): patient search, Rx list 7 days',
  );
  for (const size of SIZES) {
    const started = performance.now();
    await growTo(size);
    const grown = ((performance.now() - started) / 1000).toFixed(0);
    const { rows } = await pool.query<{ rx: number; pt: number }>(
      'select (select count(*)::int from prescriptions) as rx, (select count(*)::int from patients) as pt',
    );
    const m = as(morgan);
    const b = as(boss);
    const search = (userId: string, text: string) =>
      `${base}/api/mdo/v1/users/${userId}/patients-search?searchText=${encodeURIComponent(text)}&limit=25`;
    const figures = [
      await p95Of(`${base}/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_ALL`, m),
      await p95Of(`${base}/api/mdo/v1/users/${morgan.userID}/rx-list?startdate=${day(-30)}&enddate=${day(0)}`, m),
      Math.max(await p95Of(search(morgan.userID, 'smi'), m), await p95Of(search(morgan.userID, 'john smith'), m)),
      Math.max(await p95Of(search(boss.userID, 'smi'), b), await p95Of(search(boss.userID, 'john smith'), b)),
      await p95Of(`${base}/api/mdo/v1/users/${boss.userID}/rx-list?startdate=${day(-7)}&enddate=${day(0)}`, b),
    ];
    const line = `growth: ${rows[0]?.rx} | ${rows[0]?.pt} | ${figures
      .slice(0, 3)
      .map((f) => f.toFixed(1))
      .join(', ')} | ${figures
      .slice(3)
      .map((f) => f.toFixed(1))
      .join(', ')}  (grown in ${grown} s)`;
    lines.push(line);
    console.log(line);
  }
  await app.close();
} finally {
  await database.close().catch(() => undefined);
  if (process.env.GROWTH_KEEP === '1') console.log(`growth: kept database ${scratch.url}`);
  else await scratch.drop();
}
