/**
 * Zod-free checks of the answers a first screen reads (the brand on every page, the sign-in options on the sign-in
 * page; rules/user-guards.ts has those the signed-in shell waits for): zod and the schemas were a third of the
 * sign-in page's script (issue 21, decision 0043). Each guard is held
 * to its schema by a property test (test/answer-guards.test.ts): it accepts exactly what the schema accepts.
 */
import type { SignInOptions } from '../api/auth.ts';
import type { Tenant, TenantResponse } from '../api/users.ts';
import { isBrandKey } from './brand.ts';

const TENANT_COLOUR = /^#[0-9a-fA-F]{6}$/;
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isTenant = (value: unknown): value is Tenant =>
  isRecord(value) &&
  isBrandKey(value.key) &&
  typeof value.name === 'string' &&
  typeof value.title === 'string' &&
  typeof value.colour === 'string' &&
  TENANT_COLOUR.test(value.colour);

/** `tenantResponseSchema` without zod. */
export function isTenantResponse(value: unknown): value is TenantResponse {
  return (
    isRecord(value) &&
    isTenant(value.tenant) &&
    typeof value.forced === 'boolean' &&
    Array.isArray(value.brands) &&
    value.brands.every(isTenant) &&
    typeof value.reportTimeZone === 'string'
  );
}

/** `signInOptionsSchema` without zod. */
export function isSignInOptions(value: unknown): value is SignInOptions {
  return isRecord(value) && (typeof value.googleClientId === 'string' || value.googleClientId === null);
}
