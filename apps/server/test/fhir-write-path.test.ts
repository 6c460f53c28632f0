/**
 * The pharmacy's write path (issue 46 part 6): a new Task is two statements in one transaction — its identifier
 * claimed with what its arrival needs to know, then its row, flag, timeline, audit row and first version together —
 * and the answer it gives without reading back is what a read answers, for every kind of Task the contract names
 * (every code, every PA status, every substitution reason, with and without a standing rule that answers it).
 */
import { PRIOR_AUTH_STATUSES, TASK_CODES, TASK_SUBSTITUTION_REASONS, type TaskCode } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';
import { countFhirRows, fhirAs, input, mainTenantPharmacy, TASK_SYSTEM, task } from './support/fhir.ts';

const PUBLIC_URL = 'https://portal.test';
let t: TestApp;
let token: string;
let prescriptionId: string;
let practiceId: string;
let tenantId: string;
const stamp = Date.now().toString(36);

const fhir = (method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) => fhirAs(t, token, method, url, body);
const upsert = (id: string, body: unknown) => fhir('PUT', `/Task?identifier=${encodeURIComponent(`${TASK_SYSTEM}|${id}`)}`, body);

/** The least each code needs (mapping/task.ts), so each kind can be sent. */
const INPUTS: Record<TaskCode, ReturnType<typeof input>[]> = {
  'refill-request': [input('refills-remaining', { valueInteger: 2 })],
  'prior-authorization': [input('pa-status', { valueCode: 'PRIOR_AUTH_REQUIRED' })],
  substitution: [input('substitution-reason', { valueCode: 'high-cost' }), input('alternative', { valueString: 'Drug B 10 mg' })],
  'phone-exception': [input('wrong-phone', { valueString: '(555) 010-0199' })],
  appeal: [input('payer', { valueString: 'Plan A' }), input('denial-reason', { valueString: 'Step therapy' })],
};

/** Every kind of new Task: each code, then each PA status and substitution reason the contract allows. */
const KINDS: { name: string; code: TaskCode; inputs: ReturnType<typeof input>[] }[] = [
  ...TASK_CODES.map((code) => ({ name: code, code, inputs: INPUTS[code] })),
  ...PRIOR_AUTH_STATUSES.map((status) => ({
    name: `prior-authorization ${status}`,
    code: 'prior-authorization' as const,
    inputs: [input('pa-status', { valueCode: status })],
  })),
  ...Object.keys(TASK_SUBSTITUTION_REASONS).map((reason) => ({
    name: `substitution ${reason}`,
    code: 'substitution' as const,
    inputs: [input('substitution-reason', { valueCode: reason }), input('alternative', { valueString: 'Drug C 5 mg' })],
  })),
];

/** What a read answers, without what only the creating answer carries (an appeal's link and key, shown once). */
const asRead = (resource: Record<string, unknown>) => {
  const { output, ...rest } = resource as { output?: { type?: { coding?: { code?: string }[] } }[] };
  const kept = (output ?? []).filter((o) => !['appeal-link', 'appeal-key'].includes(o.type?.coding?.[0]?.code ?? ''));
  return kept.length ? { ...rest, output: kept } : rest;
};

beforeAll(async () => {
  t = await buildTestApp({ env: { PUBLIC_URL } });
  const pharmacy = await mainTenantPharmacy(t, PUBLIC_URL);
  token = pharmacy.token;
  prescriptionId = pharmacy.prescription.id;
  practiceId = pharmacy.prescription.practiceId;
  tenantId = pharmacy.tenantId;
});
afterAll(() => t.close());

describe('a new Task', () => {
  it('is two statements in one transaction (BEGIN and COMMIT besides, which PGlite does not count)', async () => {
    const before = t.database.stats.queries;
    const res = await upsert(`${stamp}-count`, task(`${stamp}-count`, 'refill-request', prescriptionId));
    expect(res.statusCode, res.body).toBe(201);
    const statements = t.database.stats.queries - before;
    expect(statements).toBeLessThanOrEqual(t.database.kind === 'postgres' ? 4 : 2);
  });

  it.each(KINDS)('$name: answers what a read of it answers, and its first version is that answer', async (kind) => {
    const id = `${stamp}-${kind.name.replaceAll(' ', '-')}`;
    const res = await upsert(id, task(id, kind.code, prescriptionId, { input: kind.inputs }));
    expect(res.statusCode, res.body).toBe(201);
    const created = asRead(res.json());
    const read = await fhir('GET', `/Task/${res.json().id}`);
    expect(read.statusCode).toBe(200);
    expect(created).toEqual(read.json());
    expect(res.headers.etag).toBe(read.headers.etag);
    expect(res.headers['last-modified']).toBe(read.headers['last-modified']);
    const first = await fhir('GET', `/Task/${res.json().id}/_history/1`);
    expect(first.statusCode).toBe(200);
    expect(asRead(first.json())).toEqual(read.json());
  });

  it('answers what a read answers when a standing rule answers it on arrival', async () => {
    await t.database.db.execute(sql`insert into standing_rules (md_office_id, name, action, drug_name, enabled)
      select ${practiceId}::uuid, 'Write path test', 'needsVisit', rx.drug_name, true from prescriptions rx
      where rx.id = ${prescriptionId}::uuid`);
    try {
      const id = `${stamp}-ruled`;
      const res = await upsert(id, task(id, 'refill-request', prescriptionId));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().status).toBe('completed');
      const read = await fhir('GET', `/Task/${res.json().id}`);
      expect(res.json()).toEqual(read.json());
    } finally {
      await t.database.db.execute(sql`delete from standing_rules where name = 'Write path test'`);
    }
  });
});

describe('a transaction Bundle of new Tasks', () => {
  /** 99 refill requests on as many prescriptions of the tenant, and a PA request on the first of them. */
  async function morningBatch(key: string, broken?: number) {
    const found = await t.database.db.execute(sql`select rx.id from prescriptions rx
      join md_offices o on o.id = rx.md_office_id and o.tenant_id = ${tenantId}::uuid
      where o.refill_request_option not like 'DoNotAsk%' and o.pa_handling <> 'DoNotDoPA'
        and not exists (select 1 from standing_rules r where r.md_office_id = o.id and r.enabled)
      order by rx.id limit 99`);
    const ids = (found as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    expect(ids).toHaveLength(99);
    const tasks = ids.map((id, n) => task(`${stamp}-${key}-${n}`, 'refill-request', n === broken ? crypto.randomUUID() : id));
    tasks.push(
      task(`${stamp}-${key}-pa`, 'prior-authorization', ids[0] as string, {
        input: [input('pa-status', { valueCode: 'PRIOR_AUTH_CHART_NOTES_NEEDED' })],
      }),
    );
    return {
      resourceType: 'Bundle',
      type: 'transaction',
      entry: tasks.map((resource) => ({
        resource,
        request: { method: 'PUT', url: `Task?identifier=${TASK_SYSTEM}|${resource.identifier[0]?.value}` },
      })),
    };
  }

  it('of 100 is one round of statements, each entry answered as it reads; a resend acts once', async () => {
    const before = await countFhirRows(t);
    const bundle = await morningBatch('b100');
    const statementsBefore = t.database.stats.queries;
    const res = await fhir('POST', '', bundle);
    const statements = t.database.stats.queries - statementsBefore;
    expect(res.statusCode, res.body).toBe(200);
    expect(statements).toBeLessThanOrEqual(t.database.kind === 'postgres' ? 4 : 2);
    const entries = res.json().entry as {
      resource: { id: string; status: string };
      response: { status: string; etag: string };
    }[];
    expect(entries.map((e) => e.response.status)).toEqual(Array(100).fill('201 Created'));
    expect(new Set(entries.map((e) => e.resource.status))).toEqual(new Set(['requested']));
    for (const entry of [entries[0], entries[57], entries[99]]) {
      const read = await fhir('GET', `/Task/${entry?.resource.id}`);
      expect(entry?.resource).toEqual(read.json());
      expect(entry?.response.etag).toBe(read.headers.etag);
    }
    expect(await countFhirRows(t)).toEqual({ ...before, tasks: before.tasks + 100, identifiers: before.identifiers + 100 });
    // Both requests on the first prescription are raised on it.
    const flags = await t.database.db.execute(sql`select needs_refill_auth as refill, prior_auth_status as pa
      from prescriptions where id = (select prescription_id from inbound_tasks where id = ${entries[99]?.resource.id}::uuid)`);
    expect((flags as unknown as { rows: unknown[] }).rows[0]).toEqual({ refill: true, pa: 'PRIOR_AUTH_CHART_NOTES_NEEDED' });

    const again = await fhir('POST', '', await morningBatch('b100'));
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().entry.map((e: { response: { status: string } }) => e.response.status)).toEqual(Array(100).fill('200 OK'));
    expect(await countFhirRows(t)).toEqual({ ...before, tasks: before.tasks + 100, identifiers: before.identifiers + 100 });
  });

  it('with one entry refused writes nothing and names that entry', async () => {
    const before = await countFhirRows(t);
    const res = await fhir('POST', '', await morningBatch('broken', 57));
    expect(res.statusCode).toBe(422);
    expect(res.json().issue[0].expression).toEqual(['Bundle.entry[57].resource.focus']);
    expect(res.json().issue[0].diagnostics).toContain('Nothing in the transaction was written');
    expect(await countFhirRows(t)).toEqual(before);
  });
});
