import { deletedSchema, standingRulesApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { standingRuleKeys } from './get-standing-rules.ts';

/** DELETE users/{id}/standing-rules/{ruleId}: the rule answers nothing more; what it answered stays answered. */
export const deleteStandingRule = ({ userId, id }: { userId: string; id: string }) =>
  api.request(standingRulesApiPaths.standingRule(userId, id), { method: 'DELETE', schema: deletedSchema });

export function useDeleteStandingRule(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteStandingRule({ userId, id }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: standingRuleKeys.all(userId) }),
  });
}
