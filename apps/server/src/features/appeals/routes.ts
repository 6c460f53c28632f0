/** Appeals calls of spec §7 (first slice: appeal-auth and save) plus reading an appeal again after a reload. */
import {
  APPEAL_TOKEN_HEADER,
  appealAuthRequestSchema,
  appealAuthResponseSchema,
  appealDraftSchema,
  appealSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppealsService } from './service.ts';

export const appealsRoutes: FastifyPluginAsyncZod<{ service: AppealsService; authPerMinute: number }> = async (
  app,
  { service, authPerMinute },
) => {
  const tags = ['appeals'];
  const params = z.object({ id: z.uuid({ message: 'Appeal not found.' }) });
  const tokenOf = (headers: Record<string, unknown>) => {
    const value = headers[APPEAL_TOKEN_HEADER];
    return typeof value === 'string' ? value : undefined;
  };
  const ctxOf = (request: { id: string; ip?: string }) => ({ requestId: request.id, ip: request.ip ?? null });

  app.post(
    '/api/mdo/v1/appeal-auth',
    {
      config: { rateLimit: { max: authPerMinute, timeWindow: '1 minute' } },
      schema: { tags, body: appealAuthRequestSchema, response: { 200: appealAuthResponseSchema } },
    },
    async (request) => service.authenticate(request.body, ctxOf(request)),
  );

  app.get('/api/mdo/v1/appeal/:id', { schema: { tags, params, response: { 200: appealSchema } } }, async (request) =>
    service.read(tokenOf(request.headers), request.params.id, ctxOf(request)),
  );

  app.post(
    '/api/mdo/v1/appeal/:id/save',
    { schema: { tags, params, body: appealDraftSchema, response: { 200: appealSchema } } },
    async (request) => service.saveDraft(tokenOf(request.headers), request.params.id, request.body, ctxOf(request)),
  );
};
