import { healthResponseSchema, readyResponseSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';

const READY_TIMEOUT_MS = 2000;

/**
 * `/healthz`: the process is alive. `/readyz`: it can take its share of traffic: warmed up (lib/warm-up.ts) and the
 * database answering within 2 s; otherwise 503 with Retry-After, so a load balancer asks again shortly.
 */
export const healthRoutes: FastifyPluginAsyncZod<{ ping: () => Promise<void>; isWarm: () => boolean }> = async (
  app,
  { ping, isWarm },
) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: healthResponseSchema } }, logLevel: 'warn' }, async () => ({
    status: 'ok' as const,
  }));

  app.get(
    '/readyz',
    { schema: { hide: true, response: { 200: readyResponseSchema } }, logLevel: 'warn' },
    async (_request, reply) => {
      if (!isWarm()) {
        reply.header('retry-after', '1');
        throw new AppError('SERVICE_UNAVAILABLE', 'Warming up: opening database connections and preparing the routes.');
      }
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          ping(),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error('timeout')), READY_TIMEOUT_MS);
          }),
        ]);
      } catch {
        throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
      } finally {
        clearTimeout(timer);
      }
      return { status: 'ok' as const, database: 'ok' as const };
    },
  );
};
