/**
 * The checks of the answers the signed-in shell waits for (the user's details, the feature flags): zod-free
 * contract guards held to their schemas by property tests (decision 0043). Loaded beside those requests
 * (`() => import('./boot-guards.ts')`): the shell draws without waiting for zod to download.
 */
import { type FeatureFlags, isFeatureFlags, isUserDetails, type UserDetails } from '@hcp/contract';
import type { GuardCheck } from './api-client.ts';

export const userDetailsCheck: GuardCheck<UserDetails> = { guard: isUserDetails };
export const featureFlagsCheck: GuardCheck<FeatureFlags> = { guard: isFeatureFlags };
