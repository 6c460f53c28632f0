/** Standing rules (issue 23, decision 0038): calls of our design under /api/mdo/v1/users/{userId}/standing-rules. */
import {
  deletedSchema,
  ref,
  STANDING_RULE_MESSAGES,
  selfParamsSchema,
  standingRuleInputSchema,
  standingRulePreviewResponseSchema,
  standingRulePreviewSchema,
  standingRuleSavedSchema,
  standingRulesResponseSchema,
  standingRuleUpdateSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { StandingRulesService } from './service.ts';

export const standingRulesRoutes: FastifyPluginAsyncZod<{ service: StandingRulesService }> = async (app, { service }) => {
  const tags = ['standing-rules'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const base = '/api/mdo/v1/users/:userId/standing-rules';
  const userParams = selfParamsSchema;
  const ruleParams = userParams.extend({ id: ref('rule', z.uuid({ message: STANDING_RULE_MESSAGES.notFound })) });

  app.get(
    base,
    { ...read, schema: { tags, params: userParams, response: { 200: standingRulesResponseSchema } } },
    async (request) => service.list(signedInContext(request, request.params.userId)),
  );

  app.post(
    `${base}/preview`,
    {
      ...write,
      schema: { tags, params: userParams, body: standingRulePreviewSchema, response: { 200: standingRulePreviewResponseSchema } },
    },
    async (request) =>
      service.preview(signedInContext(request, request.params.userId), request.body.rule, request.body.ruleId ?? null),
  );

  app.post(
    base,
    { ...write, schema: { tags, params: userParams, body: standingRuleInputSchema, response: { 201: standingRuleSavedSchema } } },
    async (request, reply) =>
      reply.code(201).send(await service.create(signedInContext(request, request.params.userId), request.body)),
  );

  app.put(
    `${base}/:id`,
    {
      ...write,
      schema: { tags, params: ruleParams, body: standingRuleUpdateSchema, response: { 200: standingRuleSavedSchema } },
    },
    async (request) =>
      service.update(signedInContext(request, request.params.userId), request.params.id, request.body.rule, request.body.version),
  );

  app.delete(
    `${base}/:id`,
    { ...write, schema: { tags, params: ruleParams, response: { 200: deletedSchema } } },
    async (request) => {
      await service.remove(signedInContext(request, request.params.userId), request.params.id);
      return { id: request.params.id, deleted: true as const };
    },
  );
};
