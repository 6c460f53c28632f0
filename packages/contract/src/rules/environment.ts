/** Environment names (spec §9). */

export const PRODUCTION_ENVIRONMENTS = ['production', 'cks-prod', 'eks-prod'] as const;
export const DEV_ENVIRONMENTS = ['development', 'dev', 'cks-dev', 'eks-dev'] as const;
export type EnvironmentKind = 'production' | 'dev';

export function environmentKind(name: string | null | undefined): EnvironmentKind | null {
  const value = (name ?? '').trim().toLowerCase();
  if ((PRODUCTION_ENVIRONMENTS as readonly string[]).includes(value)) return 'production';
  if ((DEV_ENVIRONMENTS as readonly string[]).includes(value)) return 'dev';
  return null;
}

export const isProduction = (name: string | null | undefined): boolean => environmentKind(name) === 'production';
export const isDev = (name: string | null | undefined): boolean => environmentKind(name) === 'dev';

/** The addresses an environment talks to (spec §9: API, auth and operations, one set per environment). */
export interface EnvironmentEndpoints {
  /** Base of the API; '' is the portal's own origin (the server serves the app and the API together). */
  api: string;
  /** Base of the sign-in calls (/auth-service/…); '' is the portal's own origin. */
  auth: string;
  /** The operations site's order page; the Rx list adds ?orderNumber=. */
  operations: string;
}

/**
 * Per environment kind; 'local' is any other name (a laptop, CI). The spec does not show the values:
 * these are ours, and each can still be overridden one by one at build time (VITE_API_BASE_URL,
 * VITE_AUTH_BASE_URL, VITE_OPERATIONS_ORDER_URL).
 */
export const ENVIRONMENT_ENDPOINTS: Record<EnvironmentKind | 'local', EnvironmentEndpoints> = {
  production: { api: '', auth: '', operations: 'https://operations.hcp-portal.com/orders' },
  dev: { api: '', auth: '', operations: 'https://operations.dev.hcp-portal.com/orders' },
  local: { api: '', auth: '', operations: 'https://operations.hcp-portal.local/orders' },
};

/** The endpoints of APP_ENV (spec §9 names: production, cks-prod, eks-prod, development, dev, cks-dev, eks-dev). */
export function endpointsFor(
  appEnv: string | null | undefined,
  overrides: Partial<Record<keyof EnvironmentEndpoints, string | undefined>> = {},
): EnvironmentEndpoints {
  const base = ENVIRONMENT_ENDPOINTS[environmentKind(appEnv) ?? 'local'];
  return {
    api: overrides.api ?? base.api,
    auth: overrides.auth ?? overrides.api ?? base.auth,
    operations: overrides.operations ?? base.operations,
  };
}
