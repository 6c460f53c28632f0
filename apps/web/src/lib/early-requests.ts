import { api } from './api-client.ts';
import { shellRequests } from './shell-requests.ts';
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
 * (sign-in, a link) the queries ask as usual, so nothing is asked twice. Opened on a landing screen, the page's head
 * start has usually sent them already, before the entry arrived (decision 0066): `api.early` takes those answers.
 */
export function sendShellRequestsEarly(pathname: string): void {
  if (sent || pathname !== openedOn) return;
  sent = true;
  const session = readSession();
  if (!session) return;
  api.early(shellRequests(pathname, session.userId));
}
