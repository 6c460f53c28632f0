/**
 * Prometheus metrics at /metrics (issue 24), only when METRICS_TOKEN is set and only for a scraper that sends it
 * (anyone else gets what a path that does not exist gets). Labels carry route templates, methods, statuses and
 * reasons, never ids, names or search text: a route is `/api/mdo/v1/prescriptions/:prescriptionId/events`, not
 * the prescription it was called for. One registry per app, so several apps in one process (tests) do not mix.
 */
import { timingSafeEqual } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/client.ts';

export type SignInFailure = 'bad-password' | 'unknown-email' | 'locked' | 'mfa';

export interface Metrics {
  signInFailed(reason: SignInFailure): void;
  lockedOut(): void;
}

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The metrics of this app, served at /metrics to a scraper with `token`; the answer carries the auth service's signals. */
export function registerMetrics(app: FastifyInstance, database: DatabaseHandle, token: string): Metrics {
  const registry = new Registry();
  // Process, heap, GC and event-loop lag (nodejs_eventloop_lag_seconds and its percentiles).
  collectDefaultMetrics({ register: registry });
  const signInFailures = new Counter({
    name: 'hcp_sign_in_failures_total',
    help: 'Refused sign-ins and MFA codes, by reason',
    labelNames: ['reason'] as const,
    registers: [registry],
  });
  const lockouts = new Counter({
    name: 'hcp_account_lockouts_total',
    help: 'Accounts locked after repeated failed sign-ins',
    registers: [registry],
  });
  new Gauge({
    name: 'hcp_outbox_messages',
    help: 'Decisions and mails not yet handed on: due now, or held in their undo window',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      const result = (await database.db.execute(sql`
        select count(*) filter (where not_before <= now())::int as due, count(*) filter (where not_before > now())::int as held
        from outbox where dispatched_at is null and cancelled_at is null`)) as unknown as {
        rows: { due: number; held: number }[];
      };
      const row = result.rows[0];
      this.set({ state: 'due' }, Number(row?.due ?? 0));
      this.set({ state: 'held' }, Number(row?.held ?? 0));
    },
  });
  new Gauge({
    name: 'hcp_webhook_deliveries',
    help: 'Webhook deliveries to pharmacies by status (failed ones wait for an admin to redeliver)',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const result = (await database.db.execute(
        sql`select status, count(*)::int as n from webhook_deliveries group by status`,
      )) as unknown as { rows: { status: string; n: number }[] };
      this.reset();
      for (const row of result.rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  const pool = database.poolStats;
  if (pool) {
    new Gauge({
      name: 'hcp_db_pool_connections',
      help: 'PostgreSQL pool connections: open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const stats = pool();
        this.set({ state: 'open' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
        this.set({ state: 'waiting' }, stats.waiting);
      },
    });
    const queries = new Histogram({
      name: 'hcp_db_query_duration_seconds',
      help: 'Time of each PostgreSQL query, from sending it to its answer',
      buckets: SECONDS,
      registers: [registry],
    });
    database.onQuery = (seconds) => queries.observe(seconds);
  }
  serveMetrics(app, registry, token);
  return {
    signInFailed: (reason) => signInFailures.inc({ reason }),
    lockedOut: () => lockouts.inc(),
  };
}

const sameToken = (given: string, expected: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
};

function serveMetrics(app: FastifyInstance, registry: Registry, token: string): void {
  const requests = new Counter({
    name: 'hcp_http_requests_total',
    help: 'Answered HTTP requests by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'hcp_http_request_duration_seconds',
    help: 'Time to answer HTTP requests by route template, method and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: SECONDS,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    // The template, never the path: ids and search text stay out of the labels.
    const labels = { method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });
  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    const given = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    // Without the token it answers as a path that does not exist (the web app's fallback), so nothing tells it is here.
    if (!sameToken(given, token)) return reply.callNotFound();
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
}
