/**
 * The sign-in page's answer schemas, imported on demand (`() => import('./sign-in-schemas.ts')`): the sign-in page
 * draws without zod (issue 21; decision 0043); the form loads them when first used, and the request waits for them
 * at worst. The passkey options too (issue 50): imported by the page itself, they brought zod into its first load.
 */
export { loginResponseSchema, passkeyOptionsSchema } from '@hcp/contract';
