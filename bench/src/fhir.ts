/**
 * The pharmacy door (issue 19), on the small demo seed in PGlite. (1) Task upserts per second through
 * `PUT /fhir/R4/Task?identifier=…` (system-token guard, R4 validation, mapping, identifier claim, task row, the
 * prescription's flag, timeline event, audit row and first version) against two bare node:http servers that parse
 * the same body in one transaction: one inserting the task row and raising the flag (the issue's baseline), one
 * writing every row the portal keeps. Interleaved rounds (A, B, A, B…), the ratio of each pair, printed as median
 * with min and max. (2) The time from posting a Task to its presence in the prescriber's Action Needed answer, p50
 * and p95, against GET Action Needed alone.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { TASK_CODE_SYSTEM } from '@hcp/contract';
import { exportJWK, generateKeyPair } from 'jose';
import { wrapPglite } from '../../apps/server/src/db/client.ts';
import { registerClient } from '../../apps/server/src/features/integrations/clients.ts';
import { seedDemoData } from '../../apps/server/src/seed/index.ts';
import { systemAccessToken } from '../../scripts/smart-client.ts';
import { benchSignIn, startBenchApp } from './bench-app.ts';
import { interleavedRatio, quantile } from './measure.ts';

const ROUNDS = 5;
const CONNECTIONS = 4;

/** Sends requests from `connections` loops for `ms`; answers per second. */
async function throughput(ms: number, connections: number, send: () => Promise<Response>): Promise<number> {
  let done = 0;
  const end = performance.now() + ms;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < end) {
        const res = await send();
        if (!res.ok) throw new Error(`fhir bench: answer ${res.status} ${await res.text()}`);
        await res.arrayBuffer();
        done += 1;
      }
    }),
  );
  return done / (ms / 1000);
}

/**
 * Standing rules on arrival (issue 23): the same Task upserts while Dr. Morgan's practice has 20 enabled rules that
 * match nothing (the check alone) and while they match every request (each is answered: denial, event, message to
 * the pharmacy, count, audit row), each against the same upserts with the rules turned off, in interleaved rounds.
 */
async function standingRulesOnArrival(pglite: PGlite, roundMs: number, upsert: () => Promise<Response>) {
  const practice = `(select md_office_id from users where email = 'dr.morgan@demo.hcp')`;
  const drugs = (
    await pglite.query<{ drug: string }>(`select distinct drug_name as drug from prescriptions where md_office_id = ${practice}`)
  ).rows.map((r) => r.drug);
  for (const [kind, names] of [
    ['none', Array.from({ length: 20 }, (_, i) => `No such drug ${i}`)],
    ['all', drugs],
  ] as const) {
    await pglite.query(`delete from standing_rules where md_office_id = ${practice}`);
    for (const name of names) {
      await pglite.query(
        `insert into standing_rules (md_office_id, name, action, drug_name, enabled) values (${practice}, $1, 'needsVisit', $1, false)`,
        [name],
      );
    }
    const rules = (on: boolean) => pglite.query(`update standing_rules set enabled = ${on} where md_office_id = ${practice}`);
    await interleavedRatio(
      `standing-rules-on-arrival, ${kind === 'none' ? 'no rule matches' : 'a rule answers each'} (PGlite)`,
      `PUT Task upserts/s with ${names.length} enabled rules`,
      'the same upserts with the rules off',
      ROUNDS,
      async () => {
        await rules(true);
        return throughput(roundMs, CONNECTIONS, upsert);
      },
      async () => {
        await rules(false);
        return throughput(roundMs, CONNECTIONS, upsert);
      },
      (a, b) => `${a.toFixed(0)} vs ${b.toFixed(0)} upserts/s`,
    );
  }
  await pglite.query(`delete from standing_rules where md_office_id = ${practice}`);
}

export async function fhirBench(seconds: number): Promise<void> {
  const pglite = new PGlite();
  const database = wrapPglite(pglite);
  await database.migrate();
  await seedDemoData(database.db, { size: 'small' });
  const { app, base } = await startBenchApp(database);
  const tenant = (await pglite.query<{ id: string }>(`select id from tenants where key = 'main'`)).rows[0]?.id as string;

  const { privateKey, publicKey } = await generateKeyPair('ES384', { extractable: true });
  const client = await registerClient(database.db, {
    name: 'Bench pharmacy',
    jwks: { keys: [{ ...(await exportJWK(publicKey)), kid: 'b', alg: 'ES384' } as never] },
    scopes: ['system/*.*'],
    tenantId: tenant,
    createdBy: null,
  });
  const token = await systemAccessToken({
    base,
    clientId: client.clientId,
    kid: 'b',
    alg: 'ES384',
    privateKey,
    scope: 'system/*.*',
  });

  const morgan = await benchSignIn(base, 'dr.morgan@demo.hcp');
  const rxRows = (
    await pglite.query<{ id: string }>(
      `select rx.id from prescriptions rx join users u on u.md_office_id = rx.md_office_id
       where u.email = 'dr.morgan@demo.hcp' and not rx.needs_refill_auth order by rx.id limit 400`,
    )
  ).rows.map((r) => r.id);
  // Kept apart for the posted -> visible part: the throughput rounds flag the others.
  const fresh = (
    await pglite.query<{ id: string }>(
      `select rx.id from prescriptions rx join users u on u.md_office_id = rx.md_office_id
       where u.email = 'dr.morgan@demo.hcp' and not rx.needs_refill_auth order by rx.id desc limit 40`,
    )
  ).rows.map((r) => r.id);
  const pool = rxRows.filter((id) => !fresh.includes(id));
  let next = 0;
  const taskBody = (id: string, prescriptionId: string) =>
    JSON.stringify({
      resourceType: 'Task',
      identifier: [{ system: 'urn:bench:task', value: id }],
      status: 'requested',
      intent: 'order',
      code: { coding: [{ system: TASK_CODE_SYSTEM, code: 'refill-request' }] },
      focus: { reference: `MedicationRequest/${prescriptionId}` },
      businessStatus: { text: 'Waiting' },
    });
  const fhirHeaders = { authorization: `Bearer ${token}`, 'content-type': 'application/fhir+json' };
  const ours = () => {
    const id = `t${next++}`;
    return fetch(`${base}/fhir/R4/Task?identifier=${encodeURIComponent(`urn:bench:task|${id}`)}`, {
      method: 'PUT',
      headers: fhirHeaders,
      body: taskBody(id, pool[next % pool.length] as string),
    });
  };

  // Two baselines, each the same body in and the resource echoed back from one transaction: the issue's two bare
  // writes (the task row and the flag), and every row the portal's write keeps (also its identifier, timeline event,
  // audit row and first version), so the figure says what is the door's cost and what is the record's.
  const bareWrite = (allRows: boolean) => async (body: string) => {
    const task = JSON.parse(body) as { focus: { reference: string }; identifier: { system: string; value: string }[] };
    const prescriptionId = task.focus.reference.split('/')[1];
    return pglite.transaction(async (tx) => {
      const row = await tx.query<{ id: string }>(
        `insert into inbound_tasks (tenant_id, client_id, prescription_id, category, status, input)
         values ($1, $2, $3, 'refillAuth', 'requested', '{}') returning id`,
        [tenant, client.clientId, prescriptionId],
      );
      const id = row.rows[0]?.id as string;
      await tx.query('update prescriptions set needs_refill_auth = true, version = version + 1 where id = $1', [prescriptionId]);
      if (allRows) {
        const identifier = task.identifier[0] as { system: string; value: string };
        await tx.query(
          `insert into fhir_identifiers (tenant_id, resource_type, system, value, entity_id, client_id) values ($1, 'Task', $2, $3, $4, $5)`,
          [tenant, identifier.system, identifier.value, id, client.clientId],
        );
        await tx.query(
          `insert into prescription_events (prescription_id, type, request_id, data) values ($1, 'PHARMACY_REQUESTED', 'bench', '{}')`,
          [prescriptionId],
        );
        await tx.query(
          `insert into audit_log (action, entity_type, entity_id, request_id, details) values ('fhir.Task.create', 'prescription-task', $1, 'bench', '{}')`,
          [id],
        );
        await tx.query(
          `insert into fhir_versions (tenant_id, resource_type, entity_id, version_id, resource) values ($1, 'Task', $2, '1', $3)`,
          [tenant, id, body],
        );
      }
      return id;
    });
  };
  const bareServer = async (allRows: boolean) => {
    const write = bareWrite(allRows);
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = await write(body);
        res.writeHead(201, { 'content-type': 'application/fhir+json' });
        res.end(JSON.stringify({ ...JSON.parse(body), id }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/fhir/R4/Task`;
    const send = () => {
      const id = `b${next++}`;
      return fetch(url, { method: 'PUT', headers: fhirHeaders, body: taskBody(id, pool[next % pool.length] as string) });
    };
    return { server, send };
  };
  const bare = await bareServer(false);
  const bareAll = await bareServer(true);

  const roundMs = Math.max(1000, (seconds * 1000) / 2);
  await throughput(500, CONNECTIONS, ours); // warm-up: loads the R4 definitions
  // Statements of one new Task in the steady state (the first request of a process reads what it then keeps).
  const queriesBefore = database.stats.queries;
  await (await ours()).arrayBuffer();
  const queriesPerUpsert = database.stats.queries - queriesBefore;
  await interleavedRatio(
    'fhir-task-upsert (PGlite)',
    'PUT /fhir/R4/Task?identifier= upserts/s',
    'bare node:http + the same insert and flag in one transaction',
    ROUNDS,
    () => throughput(roundMs, CONNECTIONS, ours),
    () => throughput(roundMs, CONNECTIONS, bare.send),
    (a, b) =>
      `${a.toFixed(0)} vs ${b.toFixed(0)} upserts/s, ${CONNECTIONS} connections; ` +
      `${queriesPerUpsert} SQL statements per new Task besides BEGIN and COMMIT (baseline 2)`,
  );
  // Before the runs below add their tens of thousands of Tasks to the same prescriptions (a rule's answer bumps the
  // version of every open Task of its prescription), as in the figures of earlier runs.
  await standingRulesOnArrival(pglite, roundMs, ours);

  await interleavedRatio(
    'fhir-task-upsert, every row kept (PGlite)',
    'PUT /fhir/R4/Task?identifier= upserts/s',
    'bare node:http writing the same six rows in one transaction (task, flag, identifier, event, audit, version)',
    ROUNDS,
    () => throughput(roundMs, CONNECTIONS, ours),
    () => throughput(roundMs, CONNECTIONS, bareAll.send),
    (a, b) => `${a.toFixed(0)} vs ${b.toFixed(0)} upserts/s; the baseline in 6 statements, ours in ${queriesPerUpsert}`,
  );

  // A morning's batch (issue 46): transaction Bundles of 100 new Tasks, counted in Tasks per second.
  const BUNDLE = 100;
  const bundleOf = () => ({
    resourceType: 'Bundle',
    type: 'transaction',
    entry: Array.from({ length: BUNDLE }, () => {
      const id = `m${next++}`;
      return {
        resource: JSON.parse(taskBody(id, pool[next % pool.length] as string)),
        request: { method: 'PUT', url: `Task?identifier=urn:bench:task|${id}` },
      };
    }),
  });
  const bundle = () => fetch(`${base}/fhir/R4`, { method: 'POST', headers: fhirHeaders, body: JSON.stringify(bundleOf()) });
  const bundleQueriesBefore = database.stats.queries;
  await (await bundle()).arrayBuffer();
  const queriesPerBundle = database.stats.queries - bundleQueriesBefore;
  await interleavedRatio(
    'fhir-task-bundle-100 (PGlite)',
    `Tasks/s in transaction Bundles of ${BUNDLE}`,
    'bare node:http + the same insert and flag in one transaction, one Task a request',
    ROUNDS,
    async () => BUNDLE * (await throughput(roundMs, 1, bundle)),
    () => throughput(roundMs, CONNECTIONS, bare.send),
    (a, b) =>
      `${a.toFixed(0)} vs ${b.toFixed(0)} Tasks/s; ${queriesPerBundle} SQL statements per Bundle of ${BUNDLE} besides BEGIN and COMMIT`,
  );

  // Posted -> visible: a new refill Task, then Dr. Morgan's Action Needed until it holds the prescription.
  const listUrl = `${base}/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_REFILL_AUTH`;
  const userHeaders = { authorization: `Bearer ${morgan.accessToken}`, 'x-user-id': morgan.userID };
  const listRead = async () => {
    const start = performance.now();
    const text = await (await fetch(listUrl, { headers: userHeaders })).text();
    return { text, ms: performance.now() - start };
  };
  const visible: number[] = [];
  let firstRead = 0;
  const perRound = Math.floor(fresh.length / (ROUNDS + 1));
  await interleavedRatio(
    'fhir-posted-to-visible (PGlite)',
    'Task posted -> in Action Needed, p95',
    'GET Action Needed alone, p95',
    ROUNDS,
    async () => {
      const times: number[] = [];
      for (const prescriptionId of fresh.splice(0, perRound)) {
        const start = performance.now();
        const id = `v${next++}`;
        const put = await fetch(`${base}/fhir/R4/Task?identifier=${encodeURIComponent(`urn:bench:task|${id}`)}`, {
          method: 'PUT',
          headers: fhirHeaders,
          body: taskBody(id, prescriptionId),
        });
        if (put.status !== 201) throw new Error(`fhir bench: ${put.status}`);
        for (let reads = 1; ; reads += 1) {
          if ((await listRead()).text.includes(prescriptionId)) {
            if (reads === 1) firstRead += 1;
            break;
          }
        }
        times.push(performance.now() - start);
      }
      visible.push(...times);
      return quantile(times, 0.95);
    },
    async () => {
      const times: number[] = [];
      for (let i = 0; i < perRound; i += 1) times.push((await listRead()).ms);
      return quantile(times, 0.95);
    },
    (_, list) =>
      `p50 ${quantile(visible, 0.5).toFixed(1)} ms, p95 ${quantile(visible, 0.95).toFixed(1)} ms over ${visible.length} Tasks ` +
      `(visible at the first read: ${firstRead} of ${visible.length}); list alone p95 ${list.toFixed(1)} ms`,
  );
  await app.close();
  bare.server.close();
  bareAll.server.close();
  await database.close();
}
