import { type StandingRuleInput, standingRulePreviewResponseSchema, standingRulesApiPaths } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST users/{id}/standing-rules/preview: what saving the draft would answer now (nothing is written). */
export const previewStandingRule = ({
  userId,
  rule,
  ruleId,
}: {
  userId: string;
  rule: StandingRuleInput;
  ruleId: string | null;
}) =>
  api.request(standingRulesApiPaths.standingRulePreview(userId), {
    method: 'POST',
    body: { rule, ruleId },
    schema: standingRulePreviewResponseSchema,
  });

export const usePreviewStandingRule = () => useMutation({ mutationFn: previewStandingRule });
