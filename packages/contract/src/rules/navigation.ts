/** Navigation rules of the signed-in shell (spec §2 "Top navigation tabs", §9 query rules). */

/** Spec §9: the action-needed query does not run on manage-comms paths. */
export function actionNeededQueryEnabled(pathname: string): boolean {
  return !(pathname === '/manage-comms' || pathname.startsWith('/manage-comms/'));
}

const NEVER_REDIRECTED = ['/manage-accounts', '/terms-of-use', '/preferences'];

/**
 * Spec §2 menu rule: on the action-needed route, with nothing left to act on (count <= 0), not loading,
 * no auth type in the path and no navigation state asking to stay, the user goes to patient search.
 */
export function shouldRedirectToPatientSearch(input: {
  pathname: string;
  count: number;
  isLoading: boolean;
  authType: string | null | undefined;
  persisted: boolean;
  /** The provider's users see counts per practice on Action Needed instead (decision 0020): never redirected. */
  showsPracticeOverview?: boolean;
}): boolean {
  if (input.showsPracticeOverview) return false;
  const onActionNeeded = input.pathname === '/action-needed' || input.pathname.startsWith('/action-needed/');
  if (!onActionNeeded || NEVER_REDIRECTED.some((p) => input.pathname.startsWith(p))) return false;
  return input.count <= 0 && !input.isLoading && !input.authType && !input.persisted;
}

/** Spec §2: on the new-comments page, a count that drops to zero sends the user to patient search. */
export function shouldLeaveNewComments(input: {
  pathname: string;
  count: number;
  isLoading: boolean;
  persisted: boolean;
}): boolean {
  const onNewComments = input.pathname === '/new-comments' || input.pathname.startsWith('/new-comments/');
  return onNewComments && input.count <= 0 && !input.isLoading && !input.persisted;
}
