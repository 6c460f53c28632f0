/**
 * Issue 48, decision 0060: right after signing in, a user whose practice requires a strong factor adds one here; the
 * page offers to continue only once one is added, and continuing renews the session (a full token) before the list.
 */
import { SIGN_IN_POLICY_MESSAGES, type SignInFactors } from '@hcp/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSession, saveSession } from '../../../lib/storage.ts';
import AddSignInFactorRoute from './add-sign-in-factor.tsx';

const none: SignInFactors = { authenticatorApp: null, passkeys: [], recoveryCodesLeft: 0 };
const withApp: SignInFactors = { authenticatorApp: { addedAt: '2026-12-03T16:00:00.000Z' }, passkeys: [], recoveryCodesLeft: 10 };

function setup(factors: SignInFactors) {
  saveSession({ accessToken: 'restricted', refreshToken: 'r1', userID: 'u1' });
  const fetchMock = vi.fn(async (url: string) => {
    const body = url.includes('/refresh') ? { accessToken: 'full', refreshToken: 'r2' } : factors;
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(
    [
      { path: '/add-sign-in-factor', Component: AddSignInFactorRoute },
      { path: '/action-needed', element: <p>Action list</p> },
    ],
    { initialEntries: ['/add-sign-in-factor'] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetchMock, router };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/add-sign-in-factor', () => {
  it('says why, offers to add an app or a passkey, and no way on until one is added', async () => {
    setup(none);
    expect(await screen.findByRole('heading', { level: 1, name: 'Add a passkey or an authenticator app' })).toBeInTheDocument();
    expect(screen.getByText(SIGN_IN_POLICY_MESSAGES.enrolFirst)).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Set up an authenticator app' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue to HCP Portal' })).toBeNull();
  });

  it('once one is added, continuing renews the session and opens the list', async () => {
    const { fetchMock, router } = setup(withApp);
    await userEvent.click(await screen.findByRole('button', { name: 'Continue to HCP Portal' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/auth-service/refresh'))).toBe(true);
    expect(readSession()?.accessToken).toBe('full');
  });
});
