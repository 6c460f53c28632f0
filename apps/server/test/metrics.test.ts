/**
 * /metrics (issue 24): Prometheus text for a scraper with the token, 404 for anyone else or when no token is set;
 * request counts and times by route template (never an id), refused sign-ins and lockouts by reason, the outbox's
 * depth, event-loop lag, and on PostgreSQL the pool and query times.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, login, signIn } from './support/auth.ts';

const TOKEN = 'metrics-token-0123456789';
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
});
afterAll(() => t.close());

const scrape = (token = TOKEN) => t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
/** The value of one series, by its name and exact labels as Prometheus prints them. */
function value(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('/metrics', () => {
  it('answers only a scraper with the token: anyone else gets what a path that does not exist gets', async () => {
    const nowhere = await t.app.inject({ method: 'GET', url: '/no-such-page' });
    for (const headers of [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }]) {
      const res = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect([res.statusCode, res.headers['content-type'], res.body]).toEqual([
        nowhere.statusCode,
        nowhere.headers['content-type'],
        nowhere.body,
      ]);
      expect(res.body).not.toContain('nodejs_');
    }
    const res = await scrape();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts requests and their times by route template, with no id, name or search text in a label', async () => {
    const tokens = await signIn(t.app, 'dr.morgan@demo.hcp');
    for (let i = 0; i < 2; i += 1) {
      const res = await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v2/users/${tokens.userID}/action-queue` });
      expect(res.statusCode).toBe(200);
    }
    await injectAs(t.app, tokens, { method: 'GET', url: `/api/mdo/v1/patients?search=${encodeURIComponent('Jane Doe')}` });
    const text = (await scrape()).body;
    const route = '/api/mdo/v2/users/:userId/action-queue';
    expect(value(text, `hcp_http_requests_total{method="GET",route="${route}",status="200"}`)).toBe(2);
    expect(value(text, `hcp_http_request_duration_seconds_count{method="GET",route="${route}",status="200"}`)).toBe(2);
    expect(text).not.toContain(tokens.userID);
    expect(text).not.toMatch(/Jane|Doe/);
  });

  it('counts refused sign-ins by reason and the lockout they lead to', async () => {
    for (let i = 0; i < 5; i += 1) expect((await login(t.app, 'staff.lee@demo.hcp', 'not-the-password')).statusCode).toBe(401);
    expect((await login(t.app, 'nobody@nowhere.example', 'not-the-password')).statusCode).toBe(401);
    expect((await login(t.app, 'staff.lee@demo.hcp', 'not-the-password')).statusCode).toBe(429);
    const text = (await scrape()).body;
    expect(value(text, 'hcp_sign_in_failures_total{reason="bad-password"}')).toBe(5);
    expect(value(text, 'hcp_sign_in_failures_total{reason="unknown-email"}')).toBe(1);
    expect(value(text, 'hcp_sign_in_failures_total{reason="locked"}')).toBe(1);
    expect(value(text, 'hcp_account_lockouts_total')).toBe(1);
    expect(text).not.toContain('staff.lee');
  });

  it('reports the outbox’s depth and webhook deliveries from the database, and on PostgreSQL the pool and query times', async () => {
    const text = (await scrape()).body;
    expect(value(text, 'hcp_outbox_messages{state="due"}')).toBeGreaterThanOrEqual(0);
    expect(value(text, 'hcp_outbox_messages{state="held"}')).toBe(0);
    expect(text).toContain('# TYPE hcp_webhook_deliveries gauge');
    if (t.database.kind === 'postgres') {
      expect(value(text, 'hcp_db_pool_connections{state="open"}')).toBeGreaterThan(0);
      // Every query is timed, also the pool's own (`pool.query`, which pg runs with a callback).
      const before = value(text, 'hcp_db_query_duration_seconds_count') ?? 0;
      await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(value((await scrape()).body, 'hcp_db_query_duration_seconds_count')).toBeGreaterThan(before);
    } else {
      expect(text).not.toContain('hcp_db_pool_connections');
    }
  });

  it('does not exist when no token is configured', async () => {
    const plain = await buildTestApp();
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      const nowhere = await plain.app.inject({ method: 'GET', url: '/no-such-page' });
      expect([res.statusCode, res.body]).toEqual([nowhere.statusCode, nowhere.body]);
      expect(res.body).not.toContain('nodejs_');
    } finally {
      await plain.close();
    }
  });
});
