import { RX_LIST_DEFAULT_FILTER, rxListDefaultWindow, rxListQueryFor, type ShellRequest, shellRequestsFor } from '@hcp/contract';

/**
 * The GETs the signed-in shell makes before it draws, opened on `pathname` (the contract's `shellRequestsFor`), with
 * the Rx list's opening window read from this reader's clock. Read by the entry (lib/early-requests.ts) and by the
 * page's head start (lib/head-start.ts), which must agree with the shell's queries.
 */
export function shellRequests(pathname: string, userId: string, now = new Date()): ShellRequest[] {
  const { from, to } = rxListDefaultWindow(now);
  return shellRequestsFor(pathname, userId, rxListQueryFor(from, to, RX_LIST_DEFAULT_FILTER));
}

/**
 * The Rx list's opening query, read from this reader's clock, for the head start. `shellRequests` writes the same two
 * lines rather than call this: the call costs the entry about 15 bytes of gzip, and it is at its budget.
 */
export function rxListOpening(now: Date) {
  const { from, to } = rxListDefaultWindow(now);
  return rxListQueryFor(from, to, RX_LIST_DEFAULT_FILTER);
}
