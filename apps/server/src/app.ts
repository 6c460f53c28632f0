/** buildApp(config, deps) -> Fastify instance without listen; tests drive it with app.inject. */
import { generateRequestId, isRequestId } from '@hcp/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { healthRoutes } from './features/health/routes.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { loggerOptions } from './plugins/logging.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerSecurityHeaders } from './plugins/security.ts';
import { registerWebApp } from './plugins/web-app.ts';

export interface AppDeps {
  database: DatabaseHandle;
  /** Where log lines go; tests pass a stream to read them. Defaults to stdout. */
  logStream?: DestinationStream;
}

export const REQUEST_ID_HEADER = 'x-request-id';

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logStream ? { ...loggerOptions(config), stream: deps.logStream } : loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // The client's id is used when it is well-formed, so its log lines and ours share one id.
    genReqId: (req) => {
      const header = req.headers[REQUEST_ID_HEADER];
      return isRequestId(header) ? header : generateRequestId();
    },
    forceCloseConnections: 'idle',
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  registerErrorHandling(app);
  await registerSecurityHeaders(app);
  await registerOpenApi(app);

  await app.register(healthRoutes, { ping: () => deps.database.ping() });

  await registerWebApp(app, config.webDist);
  return app;
}
