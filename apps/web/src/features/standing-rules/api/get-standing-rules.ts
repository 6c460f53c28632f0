import { standingRulesApiPaths, standingRulesResponseSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

export const standingRuleKeys = { all: (userId: string) => ['standing-rules', userId] as const };

/** GET users/{id}/standing-rules (issue 23): the rules of the user's practices, and which the user may change. */
export const getStandingRules = (userId: string, signal?: AbortSignal) =>
  api.request(standingRulesApiPaths.standingRules(userId), { schema: standingRulesResponseSchema, signal });

export const standingRulesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: standingRuleKeys.all(userId), queryFn: ({ signal }) => getStandingRules(userId, signal) });

export const useStandingRules = (userId: string) => useQuery(standingRulesQueryOptions(userId));
