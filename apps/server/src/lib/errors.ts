import { type ErrorCode, type ErrorDetail, STATUS_OF_CODE } from '@hcp/contract';

/** An expected failure with a code of the contract's error shape; the error handler renders it. */
export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.statusCode = STATUS_OF_CODE[code];
  }
}

export const notFound = (what = 'Resource') => new AppError('NOT_FOUND', `${what} not found.`);
