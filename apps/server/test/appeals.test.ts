/** Appeals, first slice: sign in to one appeal with NPI + access key, read it, save the draft. */
import { APPEAL_AUTH_FAILED, APPEAL_LINK_EXPIRED, APPEAL_TOKEN_HEADER, appealAuthResponseSchema } from '@hcp/contract';
import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { demoAppealKey } from '../src/seed/generate.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { TEST_NOW } from './support/constants.ts';

let t: TestApp;
let appeals: (typeof s.appeals.$inferSelect)[];
beforeAll(async () => {
  t = await buildTestApp({ now: () => TEST_NOW, env: { AUTH_RATE_LIMIT_PER_MINUTE: '1000' } });
  appeals = await t.database.db.select().from(s.appeals).orderBy(s.appeals.id);
});
afterAll(() => t.close());

const auth = (payload: Record<string, unknown>, ip = '10.0.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/mdo/v1/appeal-auth', payload, remoteAddress: ip });
const first = () => appeals[0] as (typeof appeals)[number];
const credentials = (a = first()) => ({ npi: a.npi, key: demoAppealKey(a.id) });

describe('appeal sign-in', () => {
  it('opens the appeal for its NPI and key (any case), with a token for that appeal only', async () => {
    const res = await auth({ ...credentials(), key: demoAppealKey(first().id).toLowerCase() });
    expect(res.statusCode, res.body).toBe(200);
    const body = appealAuthResponseSchema.parse(res.json());
    expect(body.appeal).toMatchObject({
      id: first().id,
      status: 'HCP_ACTION_REQUIRED',
      clinicalNotesRequired: first().clinicalNotesRequired,
    });
    expect(body.appeal.patientName).toMatch(/^[A-Z]/);
    expect(new Date(body.expiresAt).getTime()).toBeGreaterThan(TEST_NOW.getTime());
  });

  it('answers one generic 401 for a wrong NPI or an unknown key, and 410 for an expired key', async () => {
    const wrongNpi = await auth({ ...credentials(), npi: '1234567893' });
    const wrongKey = await auth({ ...credentials(), key: 'NOT-A-KEY-123' });
    for (const res of [wrongNpi, wrongKey]) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.message).toBe(APPEAL_AUTH_FAILED);
    }
    const second = appeals[1] as (typeof appeals)[number];
    await t.database.db
      .update(s.appeals)
      .set({ accessKeyExpiresAt: new Date(TEST_NOW.getTime() - 1000) })
      .where(eq(s.appeals.id, second.id));
    const expired = await auth(credentials(second));
    expect(expired.statusCode).toBe(410);
    expect(expired.json().error.message).toBe(APPEAL_LINK_EXPIRED);
    // An expired link with the wrong NPI still says nothing about the link.
    expect((await auth({ ...credentials(second), npi: '1234567893' })).statusCode).toBe(401);
    expect(
      (await auth({ npi: '12', key: '' }))
        .json()
        .error.details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['body.key', 'body.npi']);
  });

  it('locks an appeal after five wrong NPIs, even for the right one, and audits attempts', async () => {
    const third = appeals[2] as (typeof appeals)[number];
    for (let i = 0; i < 5; i += 1) expect((await auth({ ...credentials(third), npi: '1234567893' })).statusCode).toBe(401);
    const locked = await auth(credentials(third));
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    const [failures] = await t.database.db
      .select({ n: count() })
      .from(s.auditLog)
      .where(and(eq(s.auditLog.action, 'appeal.auth.failure'), eq(s.auditLog.entityId, third.id)));
    expect(failures?.n).toBe(5);
  });

  it('rate-limits sign-in attempts per client address', async () => {
    const limited = await buildTestApp({ now: () => TEST_NOW, env: { AUTH_RATE_LIMIT_PER_MINUTE: '3' } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const res = await limited.app.inject({
          method: 'POST',
          url: '/api/mdo/v1/appeal-auth',
          payload: { npi: '1234567893', key: 'NOT-A-KEY-123' },
          remoteAddress: '10.9.9.9',
        });
        codes.push(res.statusCode);
      }
      expect(codes.slice(0, 3)).toEqual([401, 401, 401]);
      expect(codes.slice(3)).toEqual([429, 429]);
    } finally {
      await limited.close();
    }
  });
});

describe('reading and saving with the appeal token', () => {
  it('saves the draft (last write wins), reads it back, and refuses another appeal or no token (404)', async () => {
    const { token } = (await auth(credentials())).json();
    const url = `/api/mdo/v1/appeal/${first().id}`;
    const headers = { [APPEAL_TOKEN_HEADER]: token };
    const draft = { clinicalJustification: 'Failed two formulary alternatives.', diagnosisCodes: 'K58.0', urgency: 'expedited' };
    const saved = await t.app.inject({ method: 'POST', url: `${url}/save`, headers, payload: draft });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().draft).toMatchObject({ ...draft, treatmentsTried: '', attestation: false });
    const again = await t.app.inject({
      method: 'POST',
      url: `${url}/save`,
      headers,
      payload: { ...draft, diagnosisCodes: 'K58.1' },
    });
    expect(again.json().draft.diagnosisCodes).toBe('K58.1');
    const read = await t.app.inject({ method: 'GET', url, headers });
    expect(read.json().draft.diagnosisCodes).toBe('K58.1');

    const other = `/api/mdo/v1/appeal/${(appeals[3] as (typeof appeals)[number]).id}`;
    expect((await t.app.inject({ method: 'GET', url: other, headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: `${other}/save`, headers, payload: draft })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url, headers: { [APPEAL_TOKEN_HEADER]: `${token}x` } })).statusCode).toBe(404);
    const bad = await t.app.inject({ method: 'POST', url: `${url}/save`, headers, payload: { urgency: 'yesterday' } });
    expect(bad.statusCode).toBe(400);
  });

  it('refuses to change a submitted appeal (409)', async () => {
    const fifth = appeals[4] as (typeof appeals)[number];
    const { token } = (await auth(credentials(fifth))).json();
    await t.database.db.update(s.appeals).set({ submittedAt: TEST_NOW, status: 'SUBMITTED' }).where(eq(s.appeals.id, fifth.id));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/mdo/v1/appeal/${fifth.id}/save`,
      headers: { [APPEAL_TOKEN_HEADER]: token },
      payload: {},
    });
    expect(res.statusCode).toBe(409);
  });
});
