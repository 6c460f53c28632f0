/**
 * Spec §8: practice and staff calls fail with a fixed message per call ('Failed to fetch MD offices', ...).
 * The server's own answer (a conflict reason, field errors) stays on the error so a form can show it next
 * to the field it concerns. An ended session passes through unchanged: the app handles it by logging out.
 */
import type { ErrorDetail } from '@hcp/contract';
import { ApiError, SessionExpiredError } from './api-client.ts';

export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    message: string,
    readonly apiError: ApiError | null,
  ) {
    super(message);
  }
  get status(): number | null {
    return this.apiError?.status ?? null;
  }
  /** The server's explanation, when it gave one worth showing (a refusal or a validation message). */
  get reason(): string | null {
    return this.apiError && this.apiError.status < 500 ? this.apiError.message : null;
  }
  get details(): ErrorDetail[] {
    return this.apiError?.details ?? [];
  }
}

export async function withFailureMessage<T>(message: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof SessionExpiredError) throw error;
    throw new ServiceError(message, error instanceof ApiError ? error : null);
  }
}
