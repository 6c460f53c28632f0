import {
  ACTION_NEEDED_QUERY_TYPES,
  actionNeededQueryEnabled,
  ROUTES,
  RX_LIST_DEFAULT_FILTER,
  rxListDefaultWindow,
  rxListQueryFor,
  shellApiPaths,
} from '@hcp/contract';
import type { Query } from './request-shape.ts';

/**
 * The GETs the signed-in shell makes before it draws, opened on `pathname`: the user's details, the feature flags, the
 * new-comment count and, where the navigation shows it, the Action Needed list; opened on the Rx list, its opening
 * window too (decisions 0044, 0046). The shell's queries ask for exactly these URLs, so an answer asked for early is
 * theirs. Read by the entry (lib/early-requests.ts) and by the page's head start (lib/head-start.ts), which must agree.
 */
export function shellRequests(pathname: string, userId: string, now = new Date()): { path: string; query?: Query }[] {
  return [
    { path: shellApiPaths.userDetails(userId) },
    { path: shellApiPaths.featureFlags },
    { path: shellApiPaths.doctorListSearch(userId), query: { newComments: true } },
    ...(actionNeededQueryEnabled(pathname)
      ? [{ path: shellApiPaths.actionNeeded(userId), query: { actionType: ACTION_NEEDED_QUERY_TYPES.all } }]
      : []),
    ...(pathname === ROUTES.rxList ? [rxListOpeningRequest(userId, now)] : []),
  ];
}

function rxListOpeningRequest(userId: string, now: Date) {
  const { from, to } = rxListDefaultWindow(now);
  return { path: shellApiPaths.rxList(userId), query: rxListQueryFor(from, to, RX_LIST_DEFAULT_FILTER) };
}
