import {
  ACTION_NEEDED_QUERY_TYPES,
  type ActionEntry,
  type ActionNeededDoctor,
  type ActionNeededPatient,
  type ActionNeededPrescription,
  type ActionNeededResponse,
  apiPaths,
  buildCardGroups,
  countActionNeeded,
  flattenActionNeeded,
  isActionNeededResponse,
  phoneExceptionsByPatient,
  priorAuthRequiredIds,
} from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../../../lib/api-client.ts';
import { allForBrandedDrug } from '../utils/special-drugs.ts';

export type Entry = ActionEntry<ActionNeededPrescription, ActionNeededPatient, ActionNeededDoctor>;

/**
 * GET /api/mdo/v2/users/{userId}/action-needed?actionType=ACTION_NEEDED_ALL (spec §7), with `filterBy` (a
 * prescriber id, decision 0011) when the list shows one prescriber's requests.
 */
export const getActionNeeded = (userId: string, signal?: AbortSignal, filterBy?: string) =>
  api.request(apiPaths.actionNeeded(userId), {
    query: { actionType: ACTION_NEEDED_QUERY_TYPES.all, ...(filterBy ? { filterBy } : {}) },
    // A zod-free guard held to the schema by a property test: the landing screen needs no zod (decision 0064).
    schema: guardCheck(isActionNeededResponse),
    signal,
  });

/** Everything the screens and the navigation read, derived once per answer by the contract rules (spec §3). */
export function deriveActionNeeded(answer: ActionNeededResponse) {
  const entries: Entry[] = flattenActionNeeded<ActionNeededPrescription, ActionNeededPatient, ActionNeededDoctor>(answer.doctors);
  return {
    doctors: answer.doctors,
    entries,
    counts: countActionNeeded(entries),
    groups: buildCardGroups(entries),
    phoneExceptions: phoneExceptionsByPatient(entries),
    priorAuthRequiredIds: priorAuthRequiredIds(entries),
    singleBrandedDrug: allForBrandedDrug(entries.map((e) => e.prescription)),
  };
}
export type ActionNeededView = ReturnType<typeof deriveActionNeeded>;

/** Every Action Needed query of the user, whole or for one prescriber: invalidating this key refreshes them all. */
export const actionNeededQueryKey = (userId: string) => ['action-needed', userId] as const;

/** Spec §9: refetched on window focus; the shell turns it off on manage-comms paths. */
export const actionNeededQueryOptions = (userId: string, filterBy?: string) =>
  queryOptions({
    queryKey: filterBy ? ([...actionNeededQueryKey(userId), { filterBy }] as const) : actionNeededQueryKey(userId),
    queryFn: ({ signal }) => getActionNeeded(userId, signal, filterBy),
    select: deriveActionNeeded,
    refetchOnWindowFocus: true,
  });

export const useActionNeeded = (userId: string, options: { enabled?: boolean; filterBy?: string | null } = {}) =>
  useQuery({ ...actionNeededQueryOptions(userId, options.filterBy ?? undefined), enabled: options.enabled ?? true });
