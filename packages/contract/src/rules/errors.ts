/**
 * The one error shape of DESIGN §3, read by every client screen. Zod-free on purpose: the web app reads errors
 * on its first load, before zod has arrived (docs/decisions/0028). `api/errors.ts` holds the schema the server
 * answers with; a contract test proves the two accept the same bodies.
 */
import { isRecord } from './answer-guards.ts';

export const ERROR_CODES = [
  'BAD_REQUEST',
  'VALIDATION_FAILED',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'NOT_ACCEPTABLE',
  'CONFLICT',
  'GONE',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'RATE_LIMITED',
  'INTERNAL',
  'SERVICE_UNAVAILABLE',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const STATUS_OF_CODE: Record<ErrorCode, number> = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  NOT_ACCEPTABLE: 406,
  CONFLICT: 409,
  GONE: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
};

export interface ErrorDetail {
  /** Dotted path of the offending field, e.g. 'body.email' or 'query.startdate'. */
  path: string;
  message: string;
}

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[] };
}

/** Spec §8: the text shown when an answer carries status 'ERROR'. The typo is the spec's. */
export const STATUS_ERROR_MESSAGE = 'an error occured while processing request!';
export const GENERIC_ERROR_MESSAGE = 'An error has occurred.';

export interface NormalizedError {
  code: ErrorCode;
  message: string;
  status: number;
  details: ErrorDetail[];
}

const isErrorCode = (value: unknown): value is ErrorCode =>
  typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
const isErrorDetail = (value: unknown): value is ErrorDetail =>
  isRecord(value) && typeof value.path === 'string' && typeof value.message === 'string';

/** Our error body, exactly as `errorBodySchema` accepts it. */
export function isErrorBody(value: unknown): value is ErrorBody {
  if (!isRecord(value) || !isRecord(value.error) || Array.isArray(value.error)) return false;
  const { code, message, details } = value.error;
  return (
    isErrorCode(code) &&
    typeof message === 'string' &&
    (details === undefined || (Array.isArray(details) && details.every(isErrorDetail)))
  );
}

/**
 * Turns anything thrown or answered into one shape the UI can show: our error body, a body with
 * status 'ERROR', an Error, or something unknown.
 */
export function normalizeError(value: unknown, fallbackMessage = GENERIC_ERROR_MESSAGE): NormalizedError {
  if (isErrorBody(value)) {
    const { code, message, details } = value.error;
    return {
      code,
      message,
      status: STATUS_OF_CODE[code],
      details: (details ?? []).map((detail) => ({ path: detail.path, message: detail.message })),
    };
  }
  if (isRecord(value)) {
    if (value.status === 'ERROR') {
      return { code: 'INTERNAL', message: STATUS_ERROR_MESSAGE, status: 500, details: [] };
    }
    if (typeof value.error === 'string' && value.error) {
      return { code: 'INTERNAL', message: value.error, status: 500, details: [] };
    }
    // An already-normalized error (e.g. the web client's ApiError) passes through unchanged.
    if (isErrorCode(value.code) && typeof value.message === 'string' && typeof value.status === 'number') {
      const details = Array.isArray(value.details) ? (value.details as ErrorDetail[]) : [];
      return { code: value.code, message: value.message, status: value.status, details };
    }
  }
  if (value instanceof Error && value.message) {
    return { code: 'INTERNAL', message: value.message, status: 500, details: [] };
  }
  return { code: 'INTERNAL', message: fallbackMessage, status: 500, details: [] };
}
