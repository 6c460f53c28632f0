/**
 * pino options: every line carries the request id (Fastify's reqId); secrets and patient names are
 * redacted, query strings are logged by key only because search text can be a patient's name, and one-time secrets
 * in web paths are hidden.
 */
import { type LoggerOptions, stdSerializers } from 'pino';
import type { Config } from '../config.ts';

export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.accessToken',
  '*.refreshToken',
  '*.rememberMeToken',
  '*.userToken',
  '*.authToken',
  '*.token',
  '*.mfaCode',
  '*.authCode',
  '*.firstName',
  '*.lastName',
  '*.patientName',
  '*.name',
];

/** Web paths whose last segment is a one-time secret (a fax notice's code, a password-reset token). */
const SECRET_PATH = /^\/(notice|password-reset|google)\/[^/?]+/;

export function maskUrl(url: string): string {
  const [rawPath, query] = url.split('?', 2);
  const pathname = rawPath?.replace(SECRET_PATH, '/$1/*');
  if (!query) return pathname ?? url;
  const keys = [...new URLSearchParams(query).keys()];
  return `${pathname}?${keys.map((k) => `${k}=*`).join('&')}`;
}

/** Error fields that carry a statement's values (drizzle's `params`, PostgreSQL's `detail` and `where`). */
const VALUE_FIELDS = ['params', 'parameters', 'detail', 'where', 'hint', 'internalQuery'];

/**
 * A failed statement's message and stack repeat its parameters ("Failed query: … params: Jane,Doe") and
 * PostgreSQL quotes the offending value ('invalid input syntax for type date: "…"'): patient data must not
 * reach a log line, so both are cut; the SQL text, the SQLSTATE code and the constraint name stay.
 */
function hideValues(text: string): string {
  return text.replace(/\nparams: [^\n]*/g, '\nparams: [hidden]').replace(/: "[^"\n]*"/g, ': "[hidden]"');
}

export function safeErr(err: unknown): Record<string, unknown> {
  const serialized = stdSerializers.err(err as Error) as unknown as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(serialized)) {
    if (VALUE_FIELDS.includes(key)) continue;
    if (key === 'cause' && value && typeof value === 'object') out[key] = safeErr(value);
    else out[key] = typeof value === 'string' && (key === 'message' || key === 'stack') ? hideValues(value) : value;
  }
  return out;
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      err: safeErr,
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskUrl(req.url), ip: req.ip }),
    },
  };
}
