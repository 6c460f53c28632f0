/**
 * Readiness of a new instance (issue 45, part 5; decision 0053): `/readyz` says "not yet" until every pooled
 * database connection is open, each having touched every table (a new PostgreSQL backend loads each table's catalog
 * entries on first use), so a load balancer sends it traffic only once no request has to wait for a connection to be
 * made; `/healthz` (alive) answers all along.
 *
 * Measured and left out: also sending every signed-in read route a few in-process requests (signed out, or with a
 * token that fails) made no difference the load suite could see beside this machine's noise (cold instance at
 * 200-220/s, p95 of the first 2 s: 152-1,235 ms without, 336-1,300 ms with), so the code was removed. What a cold
 * instance still pays is V8 compiling the signed-in paths on their first real requests.
 */

export interface WarmUpReport {
  connections: number;
  ms: number;
}

export interface Readiness {
  readonly warm: boolean;
  warmUp(): Promise<WarmUpReport>;
}

export function createReadiness(options: { enabled: boolean; warmConnections: () => Promise<number> }): Readiness {
  let warm = !options.enabled;
  return {
    get warm() {
      return warm;
    },
    async warmUp() {
      const started = performance.now();
      try {
        const connections = await options.warmConnections();
        return { connections, ms: Math.round(performance.now() - started) };
      } finally {
        // Whatever happened, the instance serves: warming is an optimisation, never a reason to stay out.
        warm = true;
      }
    },
  };
}
