import {
  ACTION_NEEDED_QUERY_TYPES,
  actionNeededQueryEnabled,
  apiPaths,
  LANDING_ROUTES,
  ROUTES,
  RX_LIST_DEFAULT_FILTER,
  rxListDefaultWindow,
  rxListQueryFor,
} from '@hcp/contract';
import { api } from './api-client.ts';
import { readSession } from './storage.ts';

/** The page the portal was opened on: only that first screen starts its requests early. */
const openedOn = typeof window === 'undefined' ? '' : window.location.pathname;
let sent = false;

/**
 * The signed-in shell's own requests (the user's details, the feature flags, the new-comment count and, where
 * the navigation shows it, the Action Needed list), sent while the shell's code downloads when the portal opens
 * on a signed-in page (issue 21, decision 0044). On a phone this saves one round trip before the first screen.
 * Opened on the Rx list, its opening window goes too (decision 0046): the screen would otherwise ask only once its
 * code had arrived and drawn.
 * The shell's queries ask for exactly these URLs and take the answers (`api.early`); after a navigation
 * (sign-in, a link) the queries ask as usual, so nothing is asked twice.
 */
export function sendShellRequestsEarly(pathname: string): void {
  if (sent || pathname !== openedOn) return;
  sent = true;
  const session = readSession();
  if (!session) return;
  const { userId } = session;
  api.early([
    { path: apiPaths.userDetails(userId) },
    { path: apiPaths.featureFlags },
    { path: apiPaths.doctorListSearch(userId), query: { newComments: true } },
    ...(actionNeededQueryEnabled(pathname)
      ? [{ path: apiPaths.actionNeeded(userId), query: { actionType: ACTION_NEEDED_QUERY_TYPES.all } }]
      : []),
    ...(pathname === ROUTES.rxList ? [rxListOpeningRequest(userId)] : []),
  ]);
}

/**
 * Opened on a landing screen, its requests leave in a task of their own, before the router is made (main.tsx):
 * asking for four or five answers is ~30 ms of a phone's main thread, and inside the router's task they made it one
 * long task (issue 50). Other signed-in pages ask from the shell's loader, as before; whichever asks first wins.
 */
export function sendLandingRequestsEarly(): void {
  if ((LANDING_ROUTES as readonly string[]).includes(openedOn)) sendShellRequestsEarly(openedOn);
}

function rxListOpeningRequest(userId: string) {
  const { from, to } = rxListDefaultWindow();
  return { path: apiPaths.rxList(userId), query: rxListQueryFor(from, to, RX_LIST_DEFAULT_FILTER) };
}
