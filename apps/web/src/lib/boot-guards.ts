/**
 * The checks of the answers the signed-in shell waits for (the user's details, the feature flags): zod-free
 * contract guards held to their schemas by property tests (decision 0043). Loaded beside those requests
 * (`() => import('./boot-guards.ts')`): the shell draws without waiting for zod to download.
 */
import { type FeatureFlags, isFeatureFlags, isUserDetails, type UserDetails } from '@hcp/contract';
import type { GuardCheck } from './api-client.ts';

// Written as `{ guard }` rather than with the API client's `guardCheck()`: a value import of the client from here
// made the bundler re-split the client's module around this file's chunk (decision 0043). The type import is free.
export const userDetailsCheck: GuardCheck<UserDetails> = { guard: isUserDetails };
export const featureFlagsCheck: GuardCheck<FeatureFlags> = { guard: isFeatureFlags };
