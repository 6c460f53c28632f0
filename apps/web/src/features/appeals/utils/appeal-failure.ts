/**
 * Spec §8: appeal upload, save and submit failures show the server's error, or 'An error has occurred.' when
 * there is none (the server could not be reached, or answered without one). The field errors stay on the
 * error so the form can put them beside their fields.
 */
import { GENERIC_ERROR_MESSAGE } from '@hcp/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { ServiceError } from '../../../lib/service-error.ts';

export async function appealFailure<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (error instanceof ApiError) throw new ServiceError(error.status > 0 ? error.message : GENERIC_ERROR_MESSAGE, error);
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ServiceError(GENERIC_ERROR_MESSAGE, null);
  }
}

/** The text a failure shows (spec §8). */
export const appealFailureText = (error: unknown): string =>
  error instanceof ServiceError || error instanceof ApiError ? error.message || GENERIC_ERROR_MESSAGE : GENERIC_ERROR_MESSAGE;
