/**
 * Whether a failure is the database being out of reach for a moment (issue 45; decision 0051): a connection that
 * was terminated or refused (failover, restart, a proxy recycling connections, `pg_terminate_backend`), the server
 * shutting down or refusing new sessions, or no connection within the pool's time-out. Such a request is answered
 * 503 with Retry-After, never 500: the client may simply try again. Drizzle wraps the driver's error (`cause`).
 */

/** SQLSTATE classes and codes of an unreachable or stopping server (PostgreSQL appendix A). */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300', '08000', '08001', '08003', '08004', '08006']);
const UNAVAILABLE_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const UNAVAILABLE_MESSAGES = [
  /connection terminated/i,
  /client has encountered a connection error and is not queryable/i,
  /timeout exceeded when trying to connect/i,
  /terminating connection due to administrator command/i,
  /cannot use a pool after calling end/i,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth += 1) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** Seconds a client waits before trying again after a 503 of an unreachable dependency. */
export const RETRY_AFTER_SECONDS = 2;
export const UNAVAILABLE_MESSAGE = 'The service is briefly unavailable. Please try again in a moment.';
