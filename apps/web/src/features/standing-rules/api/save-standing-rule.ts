import { type StandingRuleInput, standingRuleSavedSchema, standingRulesApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * POST users/{id}/standing-rules (a new rule) or PUT users/{id}/standing-rules/{ruleId} (a change, with the version
 * read): the answer names the requests the practice's rules answered at once.
 */
export const saveStandingRule = ({
  userId,
  rule,
  existing,
}: {
  userId: string;
  rule: StandingRuleInput;
  existing: { id: string; version: number } | null;
}) =>
  existing
    ? api.request(standingRulesApiPaths.standingRule(userId, existing.id), {
        method: 'PUT',
        body: { rule, version: existing.version },
        schema: standingRuleSavedSchema,
      })
    : api.request(standingRulesApiPaths.standingRules(userId), { method: 'POST', body: rule, schema: standingRuleSavedSchema });

export function useSaveStandingRule(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { rule: StandingRuleInput; existing: { id: string; version: number } | null }) =>
      saveStandingRule({ userId, ...input }),
    // Answered requests leave Action Needed: every list of this user is refetched, not only the rules.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
