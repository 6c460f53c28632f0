import { ACCOUNTS_EMPTY_MESSAGE, type Account, canManageAccounts, PAGE_SIZE, totalPages, USER_ROLE_LABELS } from '@hcp/contract';
import { useState } from 'react';
import controls from '../../../components/controls.module.css';
import { Page } from '../../../components/page.tsx';
import { SearchBox } from '../../../components/search-box.tsx';
import { Table } from '../../../components/table/table.tsx';
import { useUserDetails } from '../../../lib/current-user/get-user-details.ts';
import { readSession } from '../../../lib/storage.ts';
import { useKeepPageInRange, useListParams } from '../../../lib/use-list-params.ts';
import { useAccounts } from '../api/search-accounts.ts';
import { AccountDialog } from '../components/account-dialog.tsx';
import { InviteForm } from '../components/invite-form.tsx';
import { SignInPolicySection } from '../components/sign-in-policy-form.tsx';

const statusOf = (a: Account) => (a.disabled ? 'Disabled' : a.invited ? 'Invited' : 'Active');

function Accounts() {
  const { searchText, page, search, goToPage } = useListParams();
  const accounts = useAccounts(searchText, page);
  const [editing, setEditing] = useState<Account | null>(null);
  const total = accounts.data?.total ?? 0;
  useKeepPageInRange(accounts.data && !accounts.isPlaceholderData ? totalPages(accounts.data.total) : undefined);
  return (
    <>
      <InviteForm />
      <section aria-labelledby="accounts-title">
        <h2 id="accounts-title">Accounts</h2>
        <SearchBox
          label="Search accounts"
          placeholder="Search by name, email, or practice"
          value={searchText}
          onSearch={search}
        />
        <Table<Account>
          caption="Accounts"
          hideCaption
          columns={[
            { key: 'name', header: 'Name', cell: (a) => a.userName },
            { key: 'email', header: 'Email', cell: (a) => a.email },
            { key: 'role', header: 'Role', cell: (a) => USER_ROLE_LABELS[a.role] },
            { key: 'practice', header: 'Practice', cell: (a) => a.practiceName ?? '' },
            { key: 'status', header: 'Status', cell: statusOf },
            { key: 'mfa', header: 'Two-step', cell: (a) => (a.mfaEnabled ? 'On' : 'Off') },
          ]}
          actions={(a) => (
            <button type="button" className={controls.secondary} onClick={() => setEditing(a)} aria-label={`Edit ${a.userName}`}>
              Edit
            </button>
          )}
          rows={accounts.data?.records ?? []}
          rowKey={(a) => a.id}
          isLoading={accounts.isPending || (accounts.isFetching && accounts.isPlaceholderData)}
          emptyMessage={accounts.isError ? 'Could not load the accounts. Please try again.' : ACCOUNTS_EMPTY_MESSAGE}
          pagination={{
            page,
            limit: PAGE_SIZE,
            total,
            label: 'Account pages',
            onPageChange: (next) => goToPage(next, totalPages(total)),
          }}
        />
      </section>
      {editing ? <AccountDialog key={editing.id} account={editing} onClose={() => setEditing(null)} /> : null}
    </>
  );
}

/** /manage-accounts (spec §6: admin users only; others are blocked). */
export default function ManageAccountsRoute() {
  const user = useUserDetails(readSession()?.userId ?? null);
  return (
    <Page title="Manage Accounts">
      {user.data && canManageAccounts(user.data) ? (
        <>
          <Accounts />
          <SignInPolicySection />
        </>
      ) : user.data ? (
        <p role="alert">Only administrators can manage accounts.</p>
      ) : (
        <p role="status">Loading…</p>
      )}
    </Page>
  );
}
