/** A substitution the pharmacy asks the prescriber to choose: an alternative, or no substitution. */

import { EVENT_TYPES, RESULT_STATUSES } from '@hcp/contract';
import { AppError } from '../../lib/errors.ts';
import type { Act, ActionContext } from './act.ts';

export function alternativeMedActions(act: Act) {
  return {
    alternativeMed: (
      ctx: ActionContext,
      id: string,
      input: {
        noSubstitute: boolean;
        selectedAlternativeMed?: string | null | undefined;
        notes?: string | undefined;
        senderName: string;
      },
    ) => {
      const choice = input.selectedAlternativeMed?.trim() || null;
      if (!input.noSubstitute && !choice) {
        const message = 'Choose an alternative medication, or choose no substitution.';
        throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.selectedAlternativeMed', message }]);
      }
      return act(ctx, 'alternativeMed', [id], () => ({
        event: input.noSubstitute ? EVENT_TYPES.alternativeMedDeclined : EVENT_TYPES.alternativeMedSelected,
        data: {
          selectedAlternativeMed: input.noSubstitute ? null : choice,
          notes: input.notes ?? '',
          senderName: input.senderName,
        },
        changes: input.noSubstitute
          ? { substitutionStatus: RESULT_STATUSES.declinedByMd, selectedAlternativeMed: null }
          : { substitutionStatus: RESULT_STATUSES.mdSelected, selectedAlternativeMed: choice },
        notify: {
          channel: 'fax',
          message: {
            type: 'alternative-medication',
            noSubstitute: input.noSubstitute,
            selectedAlternativeMed: input.noSubstitute ? null : choice,
            notes: input.notes ?? '',
            senderName: input.senderName,
          },
        },
      }));
    },
  };
}
