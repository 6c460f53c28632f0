/**
 * The schema of a renewed session's answer, imported only on demand (`() => import('./boot-schemas.ts')`) so zod
 * stays out of the first load (decision 0028). The brand, the user's details and the feature flags have zod-free
 * guards instead (lib/boot-guards.ts, decision 0043).
 */
export { refreshResponseSchema } from '@hcp/contract';
