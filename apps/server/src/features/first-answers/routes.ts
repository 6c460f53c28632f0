/**
 * GET /api/mdo/v1/users/{userId}/first-answers (decision 0068): the shell requests of a landing screen
 * (`firstAnswersParts`) answered in one response, for the page's head start. On a phone each `fetch` the head start
 * made cost its main thread 8-30 ms (4x), and the page spent four or five of its six connections on them while the
 * entry and its stylesheets waited; one request does the same work.
 *
 * Each part is the very route the client would have called, run through the whole server (`app.inject`): the same
 * session check, reach, rate limits, audit rows and answer, and nothing else is reachable through it, as the list of
 * parts is the contract's, never the caller's.
 */
import {
  API_HEADERS,
  firstAnswersParts,
  firstAnswersQuerySchema,
  firstAnswersResponseSchema,
  generateRequestId,
  selfParamsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sendJsonText, signedInContext } from '../../lib/route-helpers.ts';

/** The caller's headers each part carries: its session and its app, as if it had sent the part itself. */
const PASSED_ON = [API_HEADERS.authorization, API_HEADERS.userId, API_HEADERS.appSource] as const;

export const firstAnswersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/mdo/v1/users/:userId/first-answers',
    {
      onRequest: app.requireAuth,
      schema: {
        tags: ['users'],
        params: selfParamsSchema,
        querystring: firstAnswersQuerySchema,
        response: { 200: firstAnswersResponseSchema },
      },
    },
    async (request, reply) => {
      const { userId } = signedInContext(request, request.params.userId);
      const headers: Record<string, string> = { accept: 'application/json' };
      for (const name of PASSED_ON) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const parts = await Promise.all(
        firstAnswersParts(request.query, userId).map(({ path, query }) =>
          app.inject({
            method: 'GET',
            url: { pathname: path, query },
            headers: { ...headers, [API_HEADERS.requestId]: generateRequestId() },
            remoteAddress: request.ip,
          }),
        ),
      );
      // Each part's body is already JSON text: it is placed as it is, not parsed and written again.
      const answers = parts.map((part) => `{"status":${part.statusCode},"body":${part.payload === '' ? 'null' : part.payload}}`);
      return sendJsonText(reply, `{"answers":[${answers.join(',')}]}`);
    },
  );
};
