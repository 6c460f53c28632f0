/**
 * Remote JSON Web Key Sets (an integration client's jwksUrl, Google's keys) fetched through the outbound guard: the
 * address is checked and connected to as checked, the answer is at most KEY_SET_MAX_BYTES, the call at most
 * KEY_SET_TIMEOUT_MS. jose keeps the set for ten minutes and asks again no sooner than every 30 s, so a flood of
 * token requests naming one client costs at most one fetch per 30 s (issue 43: anyone may post an assertion).
 */
import { createRemoteJWKSet, customFetch, type JWTVerifyGetKey } from 'jose';
import type { OutboundGuard } from './guard.ts';

export const KEY_SET_MAX_BYTES = 64 * 1024;
export const KEY_SET_TIMEOUT_MS = 5_000;

export function remoteKeySet(guard: OutboundGuard, url: string): JWTVerifyGetKey {
  return createRemoteJWKSet(new URL(url), {
    timeoutDuration: KEY_SET_TIMEOUT_MS,
    cooldownDuration: 30_000,
    cacheMaxAge: 600_000,
    [customFetch]: ((input: string, init: Parameters<OutboundGuard['fetch']>[1]) =>
      guard.fetch(input, { ...init, maxBodyBytes: KEY_SET_MAX_BYTES })) as never,
  });
}

/** One remote set per address, kept while the process lives (a handful of clients; each set is small). */
export function keySetCache(guard: OutboundGuard): (url: string) => JWTVerifyGetKey {
  const sets = new Map<string, JWTVerifyGetKey>();
  return (url) => {
    let set = sets.get(url);
    if (!set) {
      set = remoteKeySet(guard, url);
      sets.set(url, set);
    }
    return set;
  };
}
