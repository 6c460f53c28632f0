import { healthResponseSchema, readyResponseSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors.ts';

const READY_TIMEOUT_MS = 2000;

export const healthRoutes: FastifyPluginAsyncZod<{ ping: () => Promise<void> }> = async (app, { ping }) => {
  app.get('/healthz', { schema: { hide: true, response: { 200: healthResponseSchema } }, logLevel: 'warn' }, async () => ({
    status: 'ok' as const,
  }));

  app.get('/readyz', { schema: { hide: true, response: { 200: readyResponseSchema } }, logLevel: 'warn' }, async () => {
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
  });
};
