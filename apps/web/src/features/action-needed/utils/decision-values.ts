/**
 * Values the decision forms share, apart from their components so that no form imports another one for them (the
 * refill, alternative and prepared-decision forms used to import each other in a circle).
 */
import { normalizeError } from '@hcp/contract';

/** The alternative form's choice "no substitute" (a radio value no product id can take). */
export const NO_SUBSTITUTE = '__no_substitute__';

/** What to say when sending a decision failed; null while nothing failed. */
export const failure = (error: unknown) => (error ? normalizeError(error, 'Could not send it. Please try again.').message : null);
