/**
 * Log lines carry no patient data (issue 18): a failed statement's parameters and the value PostgreSQL
 * quotes in its message are cut from the logged error, on the real database.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { safeErr } from '../src/plugins/logging.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ template: 'empty' });
});
afterAll(() => t.close());

describe('logged errors', () => {
  it('keep the SQL and the SQLSTATE but not the values of a failed statement', async () => {
    const failure = await t.database.db.execute(sql`select ${'Jane Doe 1970-04-05'}::date as dob`).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Error);
    // The raw error does carry the value: that is what must not reach a log line.
    const raw = JSON.stringify({ message: (failure as Error).message, cause: String((failure as Error).cause) });
    expect(raw).toContain('Jane Doe');
    const logged = JSON.stringify(safeErr(failure));
    expect(logged).not.toContain('Jane');
    expect(logged).not.toContain('1970-04-05');
    expect(logged).toContain('select $1::date');
    expect(logged).toContain('params: [hidden]');
  });
});

describe('logged request paths', () => {
  it('hide the one-time secrets some web paths carry and every query value', async () => {
    await t.app.inject({ method: 'GET', url: '/notice/ABCD-EFGH-JKMN-PQRS' });
    await t.app.inject({ method: 'GET', url: '/password-reset/secret-reset-token-123?lastName=Doe' });
    const logged = JSON.stringify(t.logs);
    expect(logged).toContain('/notice/*');
    expect(logged).toContain('/password-reset/*?lastName=*');
    expect(logged).not.toContain('ABCD-EFGH');
    expect(logged).not.toContain('secret-reset-token');
    expect(logged).not.toContain('Doe');
  });
});
