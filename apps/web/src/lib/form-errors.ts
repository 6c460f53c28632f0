/** Turning a failed call into what a form shows: the server's field errors on their fields, the rest as one line. */
import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from './api-client.ts';
import { ServiceError } from './service-error.ts';

/** Puts 'body.<field>' errors of a 400/409 answer on the form's fields; returns whether any was placed. */
export function applyServerFieldErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  bodyPrefix = 'body.',
): boolean {
  // A §8 call's ServiceError or a call of our own design's ApiError: both carry the server's field errors.
  if (!(error instanceof ServiceError || error instanceof ApiError)) return false;
  let placed = false;
  for (const detail of error.details) {
    if (!detail.path.startsWith(bodyPrefix)) continue;
    setError(
      detail.path.slice(bodyPrefix.length) as Path<T>,
      { type: 'server', message: detail.message },
      { shouldFocus: !placed },
    );
    placed = true;
  }
  return placed;
}

/** A failed save on its form: the server's field errors on their fields, else the §8 message as the form's error. */
export function showSaveFailure<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>, bodyPrefix = 'body.'): void {
  if (!applyServerFieldErrors(error, setError, bodyPrefix)) setError('root.server', { message: failureText(error) });
}

/**
 * What a person reads when a call failed: the server's reason when it gave one (why a delete was refused),
 * in its own words — not glued to the §8 call name ('Failed to delete MD office: …' read like a log line,
 * issue 21) — else the §8 message of the call.
 */
export function failureText(error: unknown): string {
  if (error instanceof ServiceError) return error.reason ?? error.message;
  return error instanceof Error ? error.message : String(error);
}
