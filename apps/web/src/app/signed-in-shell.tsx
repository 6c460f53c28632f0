/**
 * The signed-in shell and what only it needs (tabs, live updates, modals, toasts, the settings footer): its
 * own chunk, so the sign-in page does not download it (issue 21: initial JS).
 */
import {
  actionNeededQueryEnabled,
  canManageAccounts,
  isProviderUser,
  manageCommsAccess,
  ROUTES,
  shouldAutoOpenTutorial,
  shouldLeaveNewComments,
  shouldRedirectToPatientSearch,
} from '@hcp/contract';
import { useIsMutating } from '@tanstack/react-query';
import { Suspense, startTransition, useEffect, useState } from 'react';
import { Link, matchPath, Navigate, Outlet, useLocation } from 'react-router';
import { Toaster } from 'sonner';
import 'sonner/dist/styles.css';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { useActionNeeded } from '../features/action-needed/api/get-action-needed.ts';
import { useNewComments } from '../features/new-comments/api/get-new-comments.ts';
import { BrandStyle, useBrand } from '../lib/brand/brand.tsx';
import { useFeatureFlags } from '../lib/current-user/get-feature-flags.ts';
import { useUserDetails } from '../lib/current-user/get-user-details.ts';
import { readSession, storage } from '../lib/storage.ts';
import { Header } from './header.tsx';
import { AccountNav } from './header-account.tsx';
import styles from './layout.module.css';
import { PublicLayout, SkipLink } from './layouts.tsx';
import { LiveUpdates } from './live-updates.tsx';
import { SupportModal } from './modals/support-modal.tsx';
import { TutorialModal } from './modals/tutorial-modal.tsx';
import { NavTabs } from './nav-tabs.tsx';
import { RouteFocus } from './route-focus.tsx';
import { SupportAccessBanner } from './support-access-banner.tsx';

/** The signed-in shell: needs an access token and a user id in local storage, else login (spec §2). */
export function SignedInShell() {
  const location = useLocation();
  const session = readSession();
  if (!session) return <Navigate to={ROUTES.login} replace state={{ from: location.pathname }} />;
  return <Shell userId={session.userId} />;
}

function Shell({ userId }: { userId: string }) {
  const location = useLocation();
  const [tutorial, setTutorial] = useState<TutorialState>(() => ({
    open: shouldAutoOpenTutorial({
      dismissedForever: storage.get('tutorialDismissed') === 'true',
      closedThisSession: storage.get('tutorialClosed') === 'true',
    }),
    automatic: true,
  }));
  const authType = matchPath(ROUTES.actionNeededDetail, location.pathname)?.params.authType;
  const enabled = actionNeededQueryEnabled(location.pathname);
  const actionNeeded = useActionNeeded(userId, { enabled });
  const firstLoad = enabled && actionNeeded.isPending;
  const count = actionNeeded.data?.counts.total;
  const persisted = (location.state as { persist?: boolean } | null)?.persist === true;
  // While a write is on its way the screen stays: a live update can empty the list before the write's own answer
  // arrives, and leaving then would unmount what tells the user the outcome (signing all 20 prepared items lost its
  // "Signed 20 as prepared." in CI). Once the answer is told, the emptied list leaves as before.
  const writing = useIsMutating() > 0;
  const newComments = useNewComments(userId);
  const userQuery = useUserDetails(userId);
  const user = userQuery.data;
  const flags = useFeatureFlags();
  const newCommentsCount = newComments.data?.total;
  // The header's links, the brand and the footer depend on who the user is and the feature flags, and the tabs on
  // the new-comment count (New Comments is hidden while it is zero) and the Action Needed count (its badge): drawn
  // before they are known, the header or the tabs grew and everything under them jumped (a layout shift of 0.1-0.3
  // on every signed-in screen; at phone width a tab or a badge arriving late wrapped the tabs onto a third line, 0.27
  // under Lighthouse, issue 50). All four are asked for at once while the shell's code downloads
  // (lib/early-requests.ts), and the screen waits for the Action Needed list anyway (spec §2: a full-page loader while
  // it loads), so waiting for the last costs nothing. One loader until all have answered or failed, once: a failed
  // query goes back to pending when a screen retries it, and the shell must not blank itself then.
  const answered = !userQuery.isPending && !flags.isPending && !newComments.isPending && !firstLoad;
  const [known, setKnown] = useState(answered);
  // The last answer arrives through TanStack Query's external store, which React renders in one blocking task: the
  // whole shell and the screen under it were one 200 ms freeze on a phone (issue 50). Drawn in a transition, React
  // draws them in slices and the page answers taps meanwhile; the loader stays until the whole is ready.
  useEffect(() => {
    if (!known && answered) startTransition(() => setKnown(true));
  }, [known, answered]);
  // The tutorial opens before the rest is known, over the loader: it needs neither the user nor the list, it is
  // the first thing a new user reads, and opened on a nearly empty page it costs the phone no layout of the whole
  // screen under it (decision 0044). It keeps its place in the tree when the screen arrives under it.
  const tutorialModal = <Tutorial tutorial={tutorial} setTutorial={setTutorial} />;
  if (!known) {
    return (
      <>
        {tutorialModal}
        <FullPageLoader />
      </>
    );
  }
  if (
    !writing &&
    newComments.isSuccess &&
    shouldLeaveNewComments({
      pathname: location.pathname,
      count: newCommentsCount ?? 0,
      isLoading: newComments.isFetching,
      persisted,
    })
  ) {
    return <Navigate to={ROUTES.patientSearch} replace />;
  }
  if (
    !writing &&
    actionNeeded.isSuccess &&
    shouldRedirectToPatientSearch({
      pathname: location.pathname,
      count: count ?? 0,
      isLoading: actionNeeded.isFetching,
      authType,
      persisted,
      // The provider's users see their practice overview there (decision 0020); wait for the user to know.
      showsPracticeOverview: !user || isProviderUser(user),
    })
  ) {
    return <Navigate to={ROUTES.patientSearch} replace />;
  }
  return (
    <>
      {tutorialModal}
      <BrandStyle />
      <RouteFocus />
      <SkipLink />
      <ShellModals onOpenTutorial={() => setTutorial({ open: true, automatic: false })} />
      <NavTabs actionNeededCount={count} actionNeededLoading={firstLoad} newCommentsCount={newCommentsCount} />
      <SupportAccessBanner userId={userId} />
      {/* The practice's people see new and answered items as they happen (the provider's users have no items). */}
      {user && !isProviderUser(user) ? <LiveUpdates userId={userId} actionNeededCount={count} /> : null}
      <main id="main" className={styles.shellMain} tabIndex={-1}>
        {/* Spec §2: a full-page loader while the action-needed list first loads (here when it is first asked for after
            the shell has drawn, e.g. coming from Manage Communications, which does not ask for it). */}
        {firstLoad ? (
          <FullPageLoader label="Loading the prescriptions that need you…" />
        ) : (
          <Suspense fallback={<FullPageLoader />}>
            <Outlet />
          </Suspense>
        )}
      </main>
      {/* dir given: left to itself, sonner reads the page's computed direction as it mounts, a forced style recalculation
          of the whole page inside the shell's first commit (80 ms of one long task on a phone, issue 50). */}
      <Toaster position="bottom-center" richColors closeButton dir="ltr" />
      <SettingsFooter />
    </>
  );
}

/** Settings footer (spec §2): 'Manage Accounts' for admin users, and 'Terms of Use'. */
function SettingsFooter() {
  const { user } = useBrand();
  return (
    <footer className={styles.footer}>
      {user && canManageAccounts(user) ? <Link to={ROUTES.manageAccounts}>Manage Accounts</Link> : null}
      {user && canManageAccounts(user) ? <Link to={ROUTES.manageIntegrations}>Pharmacy Systems</Link> : null}
      {user?.privacyOfficer ? <Link to={ROUTES.auditTrail}>Audit Trail</Link> : null}
      {/* Our additions: the user's own settings, and an office user's practice preferences. */}
      <Link to={ROUTES.preferences}>Preferences</Link>
      {user && manageCommsAccess(user) === 'officePreferences' ? (
        <Link to={ROUTES.practicePreferences}>Practice Preferences</Link>
      ) : null}
      <Link to={ROUTES.termsOfUse}>Terms of Use</Link>
    </footer>
  );
}

type TutorialState = { open: boolean; automatic: boolean };

/**
 * The tutorial. It opens by itself after sign-in unless 'Do not show this again' was chosen (kept) or it was
 * closed in this session (spec §1, §4); the header's button opens it again.
 */
function Tutorial({ tutorial, setTutorial }: { tutorial: TutorialState; setTutorial: (next: TutorialState) => void }) {
  const closeTutorial = () => {
    storage.set('tutorialClosed', 'true');
    setTutorial({ open: false, automatic: false });
  };
  return (
    <TutorialModal
      open={tutorial.open}
      openedAutomatically={tutorial.automatic}
      onClose={closeTutorial}
      onDoNotShowAgain={() => {
        storage.set('tutorialDismissed', 'true');
        closeTutorial();
      }}
    />
  );
}

/** The header with the contact modal. */
function ShellModals({ onOpenTutorial }: { onOpenTutorial: () => void }) {
  const { user } = useBrand();
  const [contactOpen, setContactOpen] = useState(false);
  return (
    <>
      <Header account={<AccountNav onOpenTutorial={onOpenTutorial} onOpenContact={() => setContactOpen(true)} />} />
      <SupportModal open={contactOpen} onClose={() => setContactOpen(false)} user={user} />
    </>
  );
}

/** Pages for everyone (the terms): inside the shell when signed in, else on the public layout. */
export function EitherLayout() {
  return readSession() ? <SignedInShell /> : <PublicLayout />;
}
