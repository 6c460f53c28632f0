/**
 * Minimum necessary access on the Action Needed screens (decision 0020): staff are offered only what needs no
 * signature, a support window is read-only, and the provider's users without one see counts per practice.
 */
import type { PracticeWorkloadResponse, SupportAccessGrant } from '@hcp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { stubServer, userDetails } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const RX = '11111111-1111-4111-8111-111111111111';
const OFFICE = '22222222-2222-4222-8222-222222222222';
const staff = userDetails({ userName: 'Lee Staff', mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } });
const admin = userDetails({
  userName: 'Ada Admin',
  role: 'provider.admin',
  mdOfficeUser: { userType: 'provider_admin', role: null },
  mdOfficePrefs: null,
  details: { mdOfficeId: null, mdStaffId: null },
});
const grant: SupportAccessGrant = {
  id: '33333333-3333-4333-8333-333333333333',
  mdOfficeId: OFFICE,
  practiceName: 'Morgan Family Medicine',
  userName: 'Ada Admin',
  reason: 'Office asked for help with a fax.',
  startedAt: '2026-11-20T15:00:00.000Z',
  expiresAt: '2026-11-20T16:00:00.000Z',
  endedAt: null,
  active: true,
};
const workload: PracticeWorkloadResponse = {
  total: 1,
  records: [
    {
      mdOfficeId: OFFICE,
      name: 'Morgan Family Medicine',
      city: 'Columbus',
      state: 'OH',
      counts: { altMed: 1, appeals: 0, phoneException: 2, priorAuth: 3, refillAuth: 4, total: 10 },
      unreadComments: 5,
    },
  ],
};

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

const renderAt = (path: string) => renderActionNeeded(path);

describe('office staff', () => {
  it('may postpone a refill but are not offered to authorise or deny it', async () => {
    stubServer({ user: staff });
    renderAt(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByRole('button', { name: 'Postpone' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Authorize by fax' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Deny refill' })).toBeNull();
    expect(screen.getByText(/A prescriber of the practice authorizes or denies refills/)).toBeInTheDocument();
  });
});

describe('the provider’s users', () => {
  it('see counts per practice, and open read-only support access with a reason', async () => {
    const fetchMock = stubServer({
      user: admin,
      routes: (url, init) => {
        if (url.includes('/practice-workload')) return { status: 200, body: workload };
        if (url.includes('/support-access') && init.method === 'POST') return { status: 201, body: grant };
        if (url.includes('/support-access')) return { status: 200, body: { active: null } };
        return undefined;
      },
    });
    const router = renderAt('/action-needed');
    const table = await screen.findByRole('table', { name: 'Practices by requests waiting' });
    const row = await within(table).findByRole('row', { name: /Morgan Family Medicine/ });
    expect(within(row).getByText('10')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/action-needed');

    await userEvent.click(within(row).getByRole('button', { name: 'Support access to Morgan Family Medicine' }));
    const dialog = await screen.findByRole('dialog', { name: 'Support access to Morgan Family Medicine' });
    await userEvent.type(within(dialog).getByLabelText('Why do you need access?'), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open read-only access' }));
    expect(await within(dialog).findByText(/at least 10 characters/)).toBeInTheDocument();
    const posts = () => fetchMock.mock.calls.filter(([u, i]) => String(u).includes('/support-access') && i?.method === 'POST');
    expect(posts()).toHaveLength(0);

    await userEvent.type(within(dialog).getByLabelText('Why do you need access?'), ' - the office asked about a fax.');
    await userEvent.selectOptions(within(dialog).getByLabelText('For'), '30');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Open read-only access' }));
    await vi.waitFor(() => expect(posts()).toHaveLength(1));
    const [, init] = posts()[0] as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      mdOfficeId: OFFICE,
      reason: 'short - the office asked about a fax.',
      minutes: 30,
    });
  });

  it('inside a support window see the request but no action', async () => {
    stubServer({
      user: admin,
      routes: (url) => (url.includes('/support-access') ? { status: 200, body: { active: grant } } : undefined),
    });
    renderAt(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByText(/Support access is read-only/)).toBeInTheDocument();
    expect(screen.getByText('Jane Doe')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Postpone' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Authorize by fax' })).toBeNull();
  });

  it('outside a support window, an item’s link says the item is outside their reach and how to help, not that it is done (issue 47)', async () => {
    stubServer({
      user: admin,
      routes: (url) => (url.includes('/support-access') ? { status: 200, body: { active: null } } : undefined),
    });
    renderAt(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByRole('note')).toHaveTextContent(/Patient details are shown to each practice’s own people/);
    expect(screen.queryByText(/no longer needs this action/)).toBeNull();
  });
});
