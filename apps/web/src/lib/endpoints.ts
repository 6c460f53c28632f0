import { endpointsFor } from '@hcp/contract';

/*
 * Apart from the rest of the build's settings (lib/config.ts) because the page's head start (decision 0066) reads
 * these and no others: it carries only what it imports.
 */

/**
 * The environment the build is for (spec §9 names; VITE_APP_ENV, else APP_ENV as the build saw it): it picks
 * the API, auth and operations addresses, each of which an explicit VITE_* setting still overrides.
 */
export const appEnv = import.meta.env.VITE_APP_ENV ?? import.meta.env.APP_ENV;
/** The API, auth and operations addresses of the build (also read by the page's head start, decision 0066). */
export const endpoints = endpointsFor(appEnv, {
  api: import.meta.env.VITE_API_BASE_URL,
  auth: import.meta.env.VITE_AUTH_BASE_URL,
  operations: import.meta.env.VITE_OPERATIONS_ORDER_URL,
});
