import { manageCommsAccess, ROUTES, webPaths } from '@hcp/contract';
import { Link, Navigate, Route, Routes, useSearchParams } from 'react-router';
import { Page } from '../../../components/page.tsx';
import { useFeatureFlags } from '../../../lib/current-user/get-feature-flags.ts';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { readSession } from '../../../lib/storage.ts';
import { HcpDetailsForm } from '../components/hcp-details-form.tsx';
import { HcpEdit } from '../components/hcp-edit.tsx';
import { HcpsList } from '../components/hcps-list.tsx';
import { ManageCommsContext } from '../components/manage-comms-context.ts';
import { PracticeDetailsForm } from '../components/practice-details-form.tsx';
import { PracticeEdit } from '../components/practice-edit.tsx';
import { PracticesList } from '../components/practices-list.tsx';
import { SubTabs } from '../components/sub-tabs.tsx';

function HcpCreate() {
  const [params] = useSearchParams();
  return (
    <section aria-labelledby="hcp-create-title">
      <h2 id="hcp-create-title">New HCP or staff member</h2>
      <HcpDetailsForm person={null} practiceId={params.get('practiceId')} />
    </section>
  );
}

function PracticeCreate() {
  return (
    <section aria-labelledby="practice-create-title">
      <h2 id="practice-create-title">New practice</h2>
      <PracticeDetailsForm office={null} />
    </section>
  );
}

/**
 * /manage-comms (spec §2): tabs Practices and HCPs and Staff; the index and unknown paths go (replace) to
 * practices. The menu shows the tab only to users allowed in (manageCommsAccess); anyone else who types the
 * address is told whose screen it is (and an office user where their practice's preferences are), like Manage
 * Accounts, and nothing is fetched for them (issue 21: they saw "Failed to fetch MD offices").
 */
export default function ManageCommsRoute() {
  const userId = readSession()?.userId ?? null;
  // Child screens receive the user, whether it is still loading, and the feature flags (spec §2).
  const user = useUserDetails(userId);
  const flags = useFeatureFlags();
  const context = { user: user.data ?? null, isUserFetching: user.isFetching, featureFlags: flags.data ?? null };
  const access = user.data ? manageCommsAccess(user.data) : null;
  if (access !== 'manage') {
    return (
      <Page title="Manage Communications">
        {access === null ? (
          <p role="status">Loading…</p>
        ) : (
          <p role="alert">
            Manage Communications is for the provider’s administrators and sales team.
            {access === 'officePreferences' ? (
              <>
                {' '}
                Your practice’s communication preferences are in <Link to={ROUTES.practicePreferences}>Practice Preferences</Link>
                .
              </>
            ) : null}
          </p>
        )}
      </Page>
    );
  }
  return (
    <Page title="Manage Communications">
      <SubTabs
        label="Manage Communications"
        tabs={[
          { to: webPaths.manageCommsPractices, label: 'Practices' },
          { to: webPaths.manageCommsHcps, label: 'HCPs and Staff' },
        ]}
      />
      <ManageCommsContext value={context}>
        <Routes>
          <Route index element={<Navigate to={webPaths.manageCommsPractices} replace />} />
          <Route path="practices" element={<PracticesList />} />
          <Route path="practices/create" element={<PracticeCreate />} />
          <Route path="practices/:practiceId/edit" element={<PracticeEdit />} />
          <Route path="practices/:practiceId/edit/:tab" element={<PracticeEdit />} />
          <Route path="hcps" element={<HcpsList />} />
          <Route path="hcps/create" element={<HcpCreate />} />
          <Route path="hcps/:mdStaffId/edit" element={<HcpEdit />} />
          <Route path="hcps/:mdStaffId/edit/:tab" element={<HcpEdit />} />
          <Route path="*" element={<Navigate to={`${ROUTES.manageComms}/practices`} replace />} />
        </Routes>
      </ManageCommsContext>
    </Page>
  );
}
