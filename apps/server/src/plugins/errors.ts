/**
 * One error handler and one not-found handler: every failure leaves the server in DESIGN §3's shape
 * `{ error: { code, message, details? } }`, and nothing internal leaks from a 5xx.
 */
import type { ErrorBody, ErrorCode, ErrorDetail } from '@hcp/contract';
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS, UNAVAILABLE_MESSAGE } from '../lib/dependency-errors.ts';
import { AppError } from '../lib/errors.ts';

export const INTERNAL_ERROR_MESSAGE = 'Something went wrong on our side. Please try again.';
export const API_PREFIXES = ['/api/', '/auth/', '/auth-service/'];

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return API_PREFIXES.some((prefix) => pathname.startsWith(prefix) || `${pathname}/` === prefix);
}

export function sendError(reply: FastifyReply, status: number, code: ErrorCode, message: string, details?: ErrorDetail[]) {
  const body: ErrorBody = { error: { code, message, ...(details && details.length > 0 ? { details } : {}) } };
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[]; message?: string } };
}

function validationDetails(error: FastifyError): ErrorDetail[] {
  const context = error.validationContext ?? 'body';
  return ((error.validation ?? []) as ValidationIssue[]).map((issue) => {
    const fromIssue = issue.params?.issue?.path?.map(String);
    const fromPointer = (issue.instancePath ?? '').split('/').filter(Boolean);
    const segments = fromIssue ?? fromPointer;
    return {
      path: [context, ...segments].join('.'),
      message: issue.params?.issue?.message ?? issue.message ?? 'Invalid value.',
    };
  });
}

/** Fastify's own client-error codes and how we name them. */
const FASTIFY_CODES: Record<string, { status: number; code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'BAD_REQUEST', message: 'The request body is not valid JSON.' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'BAD_REQUEST', message: 'The request body is empty but JSON was declared.' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'PAYLOAD_TOO_LARGE', message: 'The request body is too large.' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    code: 'UNSUPPORTED_MEDIA_TYPE',
    message: 'This content type is not accepted here.',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    status: 400,
    code: 'BAD_REQUEST',
    message: 'The content length does not match the body.',
  },
};

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      reply.headers(error.headers);
      return sendError(reply, error.statusCode, error.code, error.message, error.details);
    }
    if (error.validation) {
      return sendError(reply, 400, 'VALIDATION_FAILED', 'Some fields are not valid.', validationDetails(error));
    }
    const known = error.code ? FASTIFY_CODES[error.code] : undefined;
    if (known) return sendError(reply, known.status, known.code, known.message);
    if (error instanceof SyntaxError && error.statusCode === 400) {
      return sendError(reply, 400, 'BAD_REQUEST', 'The request body is not valid JSON.');
    }
    if (error.statusCode === 429) {
      return sendError(reply, 429, 'RATE_LIMITED', 'Too many requests. Please wait a moment and try again.');
    }
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      return sendError(reply, error.statusCode, 'BAD_REQUEST', error.message || 'Bad request.');
    }
    if (isDatabaseUnavailable(error)) {
      // A moment without the database (a failover, a restart, a dropped connection): the client tries again.
      request.log.warn({ err: { message: (error as Error).message } }, 'database unavailable');
      reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return sendError(reply, 503, 'SERVICE_UNAVAILABLE', UNAVAILABLE_MESSAGE);
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendError(reply, 500, 'INTERNAL', INTERNAL_ERROR_MESSAGE);
  });
}

/** Unknown API routes answer JSON 404; the web app's own paths are handled by the static plugin. */
export function apiNotFound(reply: FastifyReply) {
  return sendError(reply, 404, 'NOT_FOUND', 'No such API route.');
}
