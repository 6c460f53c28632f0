import type { FirstAnswersQuery } from '../api/first-answers.ts';
import { ROUTES, shellApiPaths } from '../routes.ts';
import { ACTION_NEEDED_QUERY_TYPES } from './action-needed-query.ts';
import { actionNeededQueryEnabled } from './navigation.ts';
import type { RxListFilter } from './rx-list.ts';
import { RX_LIST_DEFAULT_FILTER } from './rx-list-window.ts';

/** One GET the shell makes: its path and its query, in the URL's key order (text values: a URL's own). */
export interface ShellRequest {
  path: string;
  query?: Record<string, string>;
}

/** The Rx list's opening query (rxListQueryFor): whole UTC days of the reader's window, and its opening filter. */
export type RxListOpening = {
  startdate: string;
  enddate: string;
  selectedFilter: RxListFilter;
};

/**
 * The GETs the signed-in shell makes before it draws, opened on `pathname`: the user's details, the feature flags, the
 * new-comment count and, where the navigation shows it, the Action Needed list; opened on the Rx list, its opening
 * window too (decisions 0044, 0046). The shell's queries ask for exactly these URLs, so an answer asked for early is
 * theirs. Read by the client's early requests, by the page's head start (decision 0066) and by the server's first
 * answers (decision 0068), which answers them in one response: all three must agree, so all three call this.
 * The Rx list's window is the reader's (their clock, their day), so it is given, never worked out here.
 */
export function shellRequestsFor(pathname: string, userId: string, rxListOpening?: RxListOpening): ShellRequest[] {
  const opening = pathname === ROUTES.rxList && rxListOpening;
  return [
    { path: shellApiPaths.userDetails(userId) },
    { path: shellApiPaths.featureFlags },
    { path: shellApiPaths.doctorListSearch(userId), query: { newComments: 'true' } },
    ...(actionNeededQueryEnabled(pathname)
      ? [{ path: shellApiPaths.actionNeeded(userId), query: { actionType: ACTION_NEEDED_QUERY_TYPES.all } }]
      : []),
    ...(opening ? [{ path: shellApiPaths.rxList(userId), query: opening }] : []),
  ];
}

/**
 * What the page's head start asks the first answers for (decision 0068): the endpoint's query (the screen, and the Rx
 * list its window), its screen any path, as `shellRequestsFor` takes one.
 */
export type FirstAnswersAsk = Omit<FirstAnswersQuery, 'screen'> & { screen: string };

/** The first answers' query for `screen`, opened with the reader's Rx list window: only the Rx list sends it. */
export function firstAnswersAskFor(screen: string, opening: RxListOpening): FirstAnswersAsk {
  return screen === ROUTES.rxList ? { screen, startdate: opening.startdate, enddate: opening.enddate } : { screen };
}

/**
 * The requests a first answers' query stands for, in the order of its parts: what the server answers and what the
 * head start files each part under.
 */
export function firstAnswersParts({ screen, startdate, enddate }: FirstAnswersAsk, userId: string): ShellRequest[] {
  const opening = startdate && enddate ? { startdate, enddate, selectedFilter: RX_LIST_DEFAULT_FILTER } : undefined;
  return shellRequestsFor(screen, userId, opening);
}
