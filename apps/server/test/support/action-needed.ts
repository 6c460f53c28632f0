/** Action Needed as a test reads it: a user's open refill requests, and a postpone date the server accepts. */
import {
  ACTION_NEEDED_QUERY_TYPES,
  type ActionEntry,
  type ActionNeededPrescription,
  actionNeededResponseSchema,
  flattenActionNeeded,
  type Tokens,
} from '@hcp/contract';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { injectAs } from './auth.ts';

/** The user's entries that need a refill authorization now, from their own Action Needed answer. */
export async function refillRequests(app: FastifyInstance, tokens: Tokens) {
  const res = await injectAs(app, tokens, {
    method: 'GET',
    url: `/api/mdo/v2/users/${tokens.userID}/action-needed?actionType=${ACTION_NEEDED_QUERY_TYPES.refillAuth}`,
  });
  expect(res.statusCode).toBe(200);
  const entries = flattenActionNeeded(actionNeededResponseSchema.parse(res.json()).doctors) as ActionEntry<
    ActionNeededPrescription,
    unknown,
    unknown
  >[];
  return entries.filter((e) => e.actionTypes.includes('refillAuth'));
}

let postponeDays = 10;
/** A postpone date the server accepts (within a year), different on every call so answers can be told apart. */
export const postponeDate = () => new Date(Date.now() + postponeDays++ * 86_400_000).toISOString().slice(0, 10);
