/** Every route of spec §2. Screens load on demand so each ships only its own code. */
import { ROUTES } from '@hcp/contract';
import type { ComponentType } from 'react';
import { type LoaderFunction, Navigate, type RouteObject } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader.tsx';
import { sendShellRequestsEarly } from '../lib/early-requests.ts';
import { PublicLayout } from './layouts.tsx';
import { RouteError } from './route-error.tsx';

/** A lazy screen module: its component, and a loader when the screen must act before it renders. */
const page = (load: () => Promise<{ default: ComponentType; loader?: LoaderFunction }>) => async () => {
  const module = await load();
  return module.loader ? { Component: module.default, loader: module.loader } : { Component: module.default };
};

export const routes: RouteObject[] = [
  { path: ROUTES.root, element: <Navigate to={ROUTES.actionNeeded} replace /> },
  {
    element: <PublicLayout />,
    hydrateFallbackElement: <FullPageLoader />,
    errorElement: <RouteError />,
    children: [
      { path: ROUTES.login, lazy: page(() => import('../features/auth/routes/login.tsx')) },
      { path: ROUTES.logout, lazy: page(() => import('../features/auth/routes/logout.tsx')) },
      { path: ROUTES.loginVerify, lazy: page(() => import('../features/auth/routes/login-verify.tsx')) },
      { path: ROUTES.googleLogin, lazy: page(() => import('../features/auth/routes/google-login.tsx')) },
      { path: ROUTES.passwordResetRequest, lazy: page(() => import('../features/auth/routes/password-reset-request.tsx')) },
      { path: ROUTES.passwordReset, lazy: page(() => import('../features/auth/routes/password-reset.tsx')) },
      { path: ROUTES.passwordResetExpired, lazy: page(() => import('../features/auth/routes/password-reset-expired.tsx')) },
      { path: ROUTES.getCovered, lazy: page(() => import('../features/appeals/routes/get-covered.tsx')) },
      { path: ROUTES.getCoveredForm, lazy: page(() => import('../features/appeals/routes/get-covered-form.tsx')) },
      { path: ROUTES.appealsForm, lazy: page(() => import('../features/appeals/routes/appeals-form.tsx')) },
      { path: ROUTES.notFound, lazy: page(() => import('./not-found.tsx')) },
      // Signed in, but not in the shell: the token is good only for adding a strong factor (decision 0060).
      { path: ROUTES.addSignInFactor, lazy: page(() => import('../features/preferences/routes/add-sign-in-factor.tsx')) },
    ],
  },
  {
    lazy: async () => ({ Component: (await import('./signed-in-shell.tsx')).SignedInShell }),
    // Runs while the shell's code downloads (a loader beside `lazy` is not awaited by it): the shell's first
    // requests go out at once (decision 0044). Once per page: later navigations have their answers cached.
    loader: ({ request }) => {
      sendShellRequestsEarly(new URL(request.url).pathname);
      return null;
    },
    shouldRevalidate: () => false,
    hydrateFallbackElement: <FullPageLoader />,
    errorElement: <RouteError />,
    children: [
      { path: ROUTES.actionNeeded, lazy: page(() => import('../features/action-needed/routes/action-needed.tsx')) },
      { path: ROUTES.actionNeededDetail, lazy: page(() => import('../features/action-needed/routes/action-needed-detail.tsx')) },
      { path: ROUTES.patientSearch, lazy: page(() => import('../features/patients/routes/patient-search.tsx')) },
      { path: ROUTES.patientDetail, lazy: page(() => import('../features/patients/routes/patient-detail.tsx')) },
      { path: ROUTES.newComments, lazy: page(() => import('../features/new-comments/routes/new-comments.tsx')) },
      { path: ROUTES.newCommentsDetail, lazy: page(() => import('../features/new-comments/routes/new-comments-detail.tsx')) },
      { path: ROUTES.prescribe, lazy: page(() => import('../features/prescribe/routes/prescribe.tsx')) },
      { path: ROUTES.preferences, lazy: page(() => import('../features/preferences/routes/preferences.tsx')) },
      { path: ROUTES.manageAccounts, lazy: page(() => import('../features/manage-accounts/routes/manage-accounts.tsx')) },
      { path: `${ROUTES.manageComms}/*`, lazy: page(() => import('../features/manage-comms/routes/manage-comms.tsx')) },
      {
        path: ROUTES.practicePreferences,
        lazy: page(() => import('../features/practice-preferences/routes/practice-preferences.tsx')),
      },
      {
        path: ROUTES.practicePreferencesDetail,
        lazy: page(() => import('../features/practice-preferences/routes/practice-preferences.tsx')),
      },
      { path: ROUTES.rxList, lazy: page(() => import('../features/rx-list/routes/rx-list.tsx')) },
      { path: ROUTES.noticeLink, lazy: page(() => import('../features/office-notifications/routes/notice-link.tsx')) },
      { path: ROUTES.standingRules, lazy: page(() => import('../features/standing-rules/routes/standing-rules.tsx')) },
      {
        path: ROUTES.coveringPrescribers,
        lazy: page(() => import('../features/covering-prescribers/routes/covering-prescribers.tsx')),
      },
      {
        path: ROUTES.controlledSubstances,
        lazy: page(() => import('../features/epcs/routes/controlled-substances.tsx')),
      },
      { path: ROUTES.auditTrail, lazy: page(() => import('../features/audit-trail/routes/audit-trail.tsx')) },
      {
        path: ROUTES.manageIntegrations,
        lazy: page(() => import('../features/integrations/routes/manage-integrations.tsx')),
      },
    ],
  },
  {
    // The terms are for everyone: signed out, the sign-in page's footer links here (issue 21).
    lazy: async () => ({ Component: (await import('./signed-in-shell.tsx')).EitherLayout }),
    hydrateFallbackElement: <FullPageLoader />,
    errorElement: <RouteError />,
    children: [{ path: ROUTES.termsOfUse, lazy: page(() => import('../features/legal/routes/terms-of-use.tsx')) }],
  },
  { path: '*', element: <Navigate to={ROUTES.notFound} replace /> },
];
