import { describePrepared, formatDateTime, type PreparedDecision } from '@hcp/contract';

/** What a person reads about a prepared decision: what signing sends, who prepared it and when (issue 23). */
export function preparedText(prepared: PreparedDecision): string {
  return `${describePrepared(prepared.decision)} — prepared by ${prepared.preparedByName}, ${formatDateTime(prepared.preparedAt)}`;
}
