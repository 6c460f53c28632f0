/**
 * The login answer's schema, imported on demand (`() => import('./sign-in-schemas.ts')`): the sign-in page draws
 * without zod (issue 21; decision 0043); the form loads it when first used, and the request waits for it at worst.
 */
export { loginResponseSchema } from '@hcp/contract';
