/**
 * Issue 48, the Controlled Substances page: a prescriber's DEA registrations (the check digit refused before anything
 * is sent), who may sign at the practice, entering a grant and approving one with two factors (the approver ticks
 * that the registration was checked), and a load failure said as such, never as an empty page.
 */
import { EPCS_MESSAGES, type EpcsOverview } from '@hcp/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import ControlledSubstancesRoute from './controlled-substances.tsx';

const PRACTICE = '00000000-0000-4000-8000-000000000001';
const MORGAN = '00000000-0000-4000-8000-0000000000a1';
const SECOND = '00000000-0000-4000-8000-0000000000a2';
const CHANGE = '00000000-0000-4000-8000-0000000000c1';
const overview = (extra: Partial<EpcsOverview> = {}): EpcsOverview => ({
  isPrescriber: true,
  registrations: [
    {
      id: 'r1',
      number: 'BM1234563',
      schedules: ['II', 'III', 'IV', 'V'],
      state: 'OH',
      expiresOn: '2028-06-30',
      addedAt: '2026-12-01T10:00:00.000Z',
    },
  ],
  strongFactors: ['totp'],
  practices: [
    {
      id: PRACTICE,
      name: 'Morgan Family Medicine',
      state: 'OH',
      prescribers: [
        { hcpId: MORGAN, name: 'Alex Morgan', isSelf: true, permission: 'none', hasCurrentRegistration: true, pending: null },
        {
          hcpId: SECOND,
          name: 'Sam Second',
          isSelf: false,
          permission: 'none',
          hasCurrentRegistration: true,
          pending: {
            id: CHANGE,
            action: 'grant',
            enteredBy: 'Lee Staff',
            enteredAt: '2026-12-03T09:00:00.000Z',
            mayApprove: true,
          },
        },
      ],
    },
  ],
  ...extra,
});

function setup(
  answer: EpcsOverview | null,
  onWrite: (url: string, body: unknown) => { status: number; body: unknown } = () => ({ status: 200, body: { status: 'ok' } }),
) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const write = init.method && init.method !== 'GET';
    const result = write
      ? onWrite(url, init.body ? JSON.parse(String(init.body)) : null)
      : answer
        ? { status: 200, body: answer }
        : { status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong.', details: [], requestId: 'r' } } };
    return new Response(JSON.stringify(result.body), { status: result.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter([{ path: '/controlled-substances', Component: ControlledSubstancesRoute }], {
    initialEntries: ['/controlled-substances'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return fetchMock;
}
const writes = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([url, init]) => ({ url, body: init?.body ? JSON.parse(String(init.body)) : null }));

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/controlled-substances', () => {
  it('says so when it cannot be loaded (never an empty page)', async () => {
    setup(null);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load your controlled substance settings. Please try again.',
    );
  });

  it('lists the registrations and refuses a DEA number whose check digit is wrong before sending it', async () => {
    const fetchMock = setup(overview());
    const table = await screen.findByRole('table', { name: 'Your DEA registrations' });
    expect(within(table).getByRole('row', { name: /BM1234563/ })).toHaveTextContent('06/30/2028');
    await userEvent.click(screen.getByRole('button', { name: 'Add a DEA registration' }));
    await userEvent.type(screen.getByLabelText('DEA number'), 'BM1234564');
    await userEvent.click(screen.getByRole('button', { name: 'Save registration' }));
    expect(await screen.findByText(EPCS_MESSAGES.deaCheckDigit)).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([]);
  });

  it('enters a grant with the password and an app code; a second person must approve it', async () => {
    const fetchMock = setup(overview(), () => ({ status: 200, body: { changeId: CHANGE } }));
    await userEvent.click(await screen.findByRole('button', { name: 'Grant permission for Alex Morgan' }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant permission for Alex Morgan' });
    expect(dialog).toHaveTextContent('once a second person');
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'pw');
    await userEvent.type(within(dialog).getByLabelText('6-digit code from your authenticator app'), '123456');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Enter the grant' }));
    await vi.waitFor(() => expect(writes(fetchMock)).toHaveLength(1));
    expect(writes(fetchMock)[0]).toEqual({
      url: '/api/mdo/v1/epcs-changes',
      body: { practiceId: PRACTICE, hcpId: MORGAN, action: 'grant', stepUp: { currentPassword: 'pw', totpCode: '123456' } },
    });
  });

  it('approving asks the approver to confirm the registration was checked', async () => {
    const fetchMock = setup(overview());
    await userEvent.click(await screen.findByRole('button', { name: 'Approve: grant permission for Sam Second' }));
    const dialog = await screen.findByRole('dialog', { name: 'Approve: grant permission for Sam Second' });
    await userEvent.type(within(dialog).getByLabelText('Your password'), 'pw');
    await userEvent.type(within(dialog).getByLabelText('6-digit code from your authenticator app'), '654321');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(EPCS_MESSAGES.verifyRequired);
    expect(writes(fetchMock)).toEqual([]);
    await userEvent.click(
      within(dialog).getByRole('checkbox', { name: /Sam Second’s DEA registration and state authorization/ }),
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(writes(fetchMock)).toHaveLength(1));
    expect(writes(fetchMock)[0]).toEqual({
      url: `/api/mdo/v1/epcs-changes/${CHANGE}/approve`,
      body: { registrationVerified: true, stepUp: { currentPassword: 'pw', totpCode: '654321' } },
    });
  });

  it('without a strong factor, points to Preferences and offers no change', async () => {
    setup(overview({ strongFactors: [] }));
    expect(await screen.findByRole('link', { name: 'Add one in Preferences' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Grant permission for Alex Morgan' })).toBeDisabled();
  });
});
