/**
 * The schemas of the answers the app reads before its first signed-in screen (user, feature flags, a renewed
 * session; the brand has a zod-free guard, decision 0043). They are imported only on demand (`() => import('./boot-schemas.ts')`), so zod and the contract's
 * schemas download while the first requests are out instead of before the app can start (issue 21; decision
 * 0028).
 */
export { featureFlagsSchema, refreshResponseSchema, userDetailsSchema } from '@hcp/contract';
