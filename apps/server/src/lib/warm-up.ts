/**
 * A fresh instance's first seconds (issue 45, part 5; decision 0053): until it has opened its database connections
 * and run each read route's request pipeline once, its first requests pay for both (measured: p95 255-562 ms in the
 * first two seconds at 220 requests/s, 30-60 ms after). `/readyz` says "not yet" until this has run, so a load
 * balancer sends it its share only when it can take it; `/healthz` (alive) answers all along.
 *
 * What it does, without reading anyone's data:
 * - opens every pooled connection at once, each touching every table (a new PostgreSQL backend loads each table's
 *   catalog entries on first use);
 * - sends every GET route a few requests in-process (`inject`), signed out and with a token that does not verify:
 *   routing, hooks, validation, the token check and the error answer are compiled and their caches filled.
 * It does not sign anyone in or read a patient list: that would need an account, and every such read is audited.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** The warm-up's requests carry this header with this process's own mark: the request log leaves them out. */
export const WARM_UP_HEADER = 'x-hcp-warm-up';
export const WARM_UP_MARK = randomBytes(16).toString('hex');

/** Rounds over the routes: enough for V8 to compile what they share, not so many that starting is slow. */
export const WARM_UP_ROUNDS = 5;
const WARMED_PREFIXES = [
  '/api/mdo/v1/users/',
  '/api/mdo/v2/users/',
  '/api/mdo/v1/prescriptions/',
  '/api/mdo/v1/patients/',
  '/fhir/R4/',
];
const NIL_UUID = '00000000-0000-4000-8000-000000000000';
/** Well-formed, signed with a key nobody has: it reaches the signature check and fails there. */
const UNVERIFIABLE_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIwMDAwMDAwMC0wMDAwLTQwMDAtODAwMC0wMDAwMDAwMDAwMDAifQ.' +
  'c2lnbmF0dXJlLXRoYXQtZG9lcy1ub3QtdmVyaWZ5LXdpdGgtYW55LWtleQ';

export interface WarmUpReport {
  connections: number;
  requests: number;
  ms: number;
}

export interface Readiness {
  readonly warm: boolean;
  /** Collects the routes to warm (call before routes are added). */
  collect(app: FastifyInstance): void;
  warmUp(app: FastifyInstance): Promise<WarmUpReport>;
}

/** Path parameters filled so the route matches: a UUID where one is expected, a plain word elsewhere. */
export function sampleUrl(url: string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => (/id$/i.test(name) ? NIL_UUID : 'warm-up'));
}

export function createReadiness(options: {
  enabled: boolean;
  warmConnections: () => Promise<number>;
  rounds?: number;
}): Readiness {
  let warm = !options.enabled;
  const urls: string[] = [];
  return {
    get warm() {
      return warm;
    },
    collect(app) {
      app.addHook('onRoute', (route: RouteOptions) => {
        const methods = Array.isArray(route.method) ? route.method : [route.method];
        // Reads only, and only the signed-in API and FHIR reads, which answer 401 before anything else: a GET
        // changes nothing, whoever sends it, but the public links (appeals, files) and sign-in options are left
        // alone, and so is the event stream (it would stay open).
        if (!methods.includes('GET') || !WARMED_PREFIXES.some((prefix) => route.url.startsWith(prefix))) return;
        if (route.url.includes('*') || route.url.includes('/appeal') || route.url.endsWith('/live-updates')) return;
        urls.push(sampleUrl(route.url));
      });
    },
    async warmUp(app) {
      const started = performance.now();
      let requests = 0;
      try {
        const connections = await options.warmConnections();
        for (let round = 0; round < (options.rounds ?? WARM_UP_ROUNDS); round += 1) {
          for (const url of urls) {
            const headers = {
              [WARM_UP_HEADER]: WARM_UP_MARK,
              ...(round % 2 === 0 ? {} : { authorization: `Bearer ${UNVERIFIABLE_TOKEN}`, 'x-user-id': NIL_UUID }),
            };
            await app.inject({ method: 'GET', url, headers });
            requests += 1;
          }
        }
        return { connections, requests, ms: Math.round(performance.now() - started) };
      } finally {
        // Whatever happened, the instance serves: warming is an optimisation, never a reason to stay out.
        warm = true;
      }
    },
  };
}
