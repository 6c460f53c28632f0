/**
 * pino options: every line carries the request id (Fastify's reqId); secrets and patient names are
 * redacted, and query strings are logged by key only because search text can be a patient's name.
 */
import type { LoggerOptions } from 'pino';
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
  '*.firstName',
  '*.lastName',
  '*.patientName',
  '*.name',
];

export function maskQuery(url: string): string {
  const [pathname, query] = url.split('?', 2);
  if (!query) return pathname ?? url;
  const keys = [...new URLSearchParams(query).keys()];
  return `${pathname}?${keys.map((k) => `${k}=*`).join('&')}`;
}

export function loggerOptions(config: Pick<Config, 'logLevel'>): LoggerOptions {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: maskQuery(req.url), ip: req.ip }),
    },
  };
}
