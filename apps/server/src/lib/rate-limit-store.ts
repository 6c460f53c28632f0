/**
 * Sign-in rate limits shared by every instance through Redis, and kept by each instance on its own while Redis is
 * away (issue 45; decision 0052): a counter Redis cannot give (down, refusing, past its 500 ms time-out) is counted in
 * this instance's memory instead, so the limit still holds — per instance — rather than failing the request or
 * vanishing. @fastify/rate-limit's own Redis and memory stores do the counting; this chooses between them per call.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

type Counted = { current: number; ttl: number };
type Callback = (error: Error | null, result?: Counted) => void;
interface Store {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read?(key: string, callback: Callback, timeWindow: number, max: number): void;
  /** Each route counts apart: the plugin gives the route's options (its method, path and limits). */
  child(routeOptions: object): Store;
}

// The plugin's stores are CommonJS files without types of their own.
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key: string,
) => Store;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
) => Store;

/** The `store` option of @fastify/rate-limit: Redis first, this instance's memory when Redis cannot answer. */
export function redisStoreWithLocalFallback(redis: Redis, nameSpace: string, onFallback: (error: Error) => void) {
  class FallbackStore implements Store {
    constructor(
      params: { continueExceeding?: boolean; exponentialBackoff?: boolean },
      private readonly shared: Store = new RedisStore(
        params.continueExceeding ?? false,
        params.exponentialBackoff ?? false,
        redis,
        nameSpace,
      ),
      private readonly local: Store = new LocalStore(params.continueExceeding ?? false, params.exponentialBackoff ?? false),
    ) {}

    private either(method: 'incr' | 'read', key: string, callback: Callback, timeWindow: number, max: number) {
      const shared = this.shared[method]?.bind(this.shared);
      const local = this.local[method]?.bind(this.local);
      if (!shared || !local) return callback(new Error(`rate-limit store without ${method}`));
      shared(
        key,
        (error, result) => {
          if (!error) return callback(null, result);
          onFallback(error);
          local(key, callback, timeWindow, max);
        },
        timeWindow,
        max,
      );
    }

    incr(key: string, callback: Callback, timeWindow: number, max: number) {
      this.either('incr', key, callback, timeWindow, max);
    }

    read(key: string, callback: Callback, timeWindow: number, max: number) {
      this.either('read', key, callback, timeWindow, max);
    }

    child(routeOptions: object): Store {
      return new FallbackStore(routeOptions, this.shared.child(routeOptions), this.local.child(routeOptions));
    }
  }
  return FallbackStore;
}
