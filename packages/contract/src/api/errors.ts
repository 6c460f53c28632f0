/** The one error shape of DESIGN §3, used by every server answer and read by every client screen. */
import { z } from 'zod';

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

export const errorDetailSchema = z.object({
  /** Dotted path of the offending field, e.g. 'body.email' or 'query.startdate'. */
  path: z.string(),
  message: z.string(),
});
export type ErrorDetail = z.infer<typeof errorDetailSchema>;

export const errorBodySchema = z.object({
  error: z.object({
    code: z.enum(ERROR_CODES),
    message: z.string(),
    details: z.array(errorDetailSchema).optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

/** Spec §8: the text shown when an answer carries status 'ERROR'. The typo is the spec's. */
export const STATUS_ERROR_MESSAGE = 'an error occured while processing request!';
export const GENERIC_ERROR_MESSAGE = 'An error has occurred.';

export interface NormalizedError {
  code: ErrorCode;
  message: string;
  status: number;
  details: ErrorDetail[];
}

/**
 * Turns anything thrown or answered into one shape the UI can show: our error body, a body with
 * status 'ERROR', an Error, or something unknown.
 */
export function normalizeError(value: unknown, fallbackMessage = GENERIC_ERROR_MESSAGE): NormalizedError {
  const parsed = errorBodySchema.safeParse(value);
  if (parsed.success) {
    const { code, message, details } = parsed.data.error;
    return { code, message, status: STATUS_OF_CODE[code], details: details ?? [] };
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (record.status === 'ERROR') {
      return { code: 'INTERNAL', message: STATUS_ERROR_MESSAGE, status: 500, details: [] };
    }
    if (typeof record.error === 'string' && record.error) {
      return { code: 'INTERNAL', message: record.error, status: 500, details: [] };
    }
    // An already-normalized error (e.g. the web client's ApiError) passes through unchanged.
    if (
      typeof record.code === 'string' &&
      (ERROR_CODES as readonly string[]).includes(record.code) &&
      typeof record.message === 'string' &&
      typeof record.status === 'number'
    ) {
      const details = Array.isArray(record.details) ? (record.details as ErrorDetail[]) : [];
      return { code: record.code as ErrorCode, message: record.message, status: record.status, details };
    }
  }
  if (value instanceof Error && value.message) {
    return { code: 'INTERNAL', message: value.message, status: 500, details: [] };
  }
  return { code: 'INTERNAL', message: fallbackMessage, status: 500, details: [] };
}
