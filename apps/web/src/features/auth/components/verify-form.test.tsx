import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSession, storage } from '../../../lib/storage.ts';
import LoginVerifyRoute from '../routes/login-verify.tsx';
import { VerifyFormCard } from './verify-form.tsx';

function setup(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  storage.set('userToken', 'ut-1');
  const router = createMemoryRouter(
    [
      { path: '/login-verify', element: <VerifyFormCard userToken="ut-1" /> },
      { path: '/action-needed', element: <p>Action list</p> },
      { path: '/add-sign-in-factor', element: <p>Add a factor</p> },
    ],
    { initialEntries: ['/login-verify'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetchMock, router };
}

async function submit(code: string, remember = false) {
  await userEvent.type(screen.getByLabelText('Verification code'), code);
  if (remember) await userEvent.click(screen.getByLabelText('Remember this device for 30 days'));
  await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
}

afterEach(() => {
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

describe('VerifyFormCard', () => {
  it('waits with the cursor in the code field, and a fixed code clears its error', async () => {
    setup(200, {});
    const field = screen.getByLabelText('Verification code');
    await vi.waitFor(() => expect(field).toHaveFocus());
    await submit('12a');
    expect(await screen.findByText('Enter the 6-digit code.')).toBeInTheDocument();
    await userEvent.clear(field);
    await userEvent.type(field, '123456');
    expect(screen.queryByText('Enter the 6-digit code.')).not.toBeInTheDocument();
  });

  it('asks for six digits before calling the server', async () => {
    const { fetchMock } = setup(200, {});
    await submit('12a');
    expect(await screen.findByText('Enter the 6-digit code.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("shows 'Incorrect verification code.' for a wrong code", async () => {
    setup(404, { error: { code: 'NOT_FOUND', message: 'Incorrect verification code.' } });
    await submit('123456');
    expect(await screen.findByRole('alert')).toHaveTextContent('Incorrect verification code.');
  });

  it("shows 'Could not verify code.' for any other failure", async () => {
    setup(401, { error: { code: 'UNAUTHORIZED', message: 'This verification code has expired.' } });
    await submit('123456');
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not verify code.');
  });

  it('stores the tokens and the remember-me token, forgets the challenge and opens action needed', async () => {
    const { fetchMock, router } = setup(200, { accessToken: 'a', refreshToken: 'r', userID: 'u', rememberMeToken: 'rm' });
    await submit('123456', true);
    await screen.findByText('Action list');
    expect(router.state.location.pathname).toBe('/action-needed');
    expect(readSession()).toEqual({ accessToken: 'a', refreshToken: 'r', userId: 'u' });
    expect(storage.get('rememberMeToken')).toBe('rm');
    expect(storage.get('userToken')).toBeNull();
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toEqual({
      authToken: 'ut-1',
      mfaCode: '123456',
      dashboard: 'MD Dashboard',
      rememberMe: true,
    });
  });

  it('sends a new code for the same user token and says so', async () => {
    const { fetchMock } = setup(200, { status: 'ok' });
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText('We sent a new code. Codes sent earlier no longer work.')).toBeInTheDocument();
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/auth-service/mfa/resend');
    expect(JSON.parse(String(init.body))).toEqual({ authToken: 'ut-1', dashboard: 'MD Dashboard' });
  });

  it("shows the server's reason when a new code cannot be sent yet", async () => {
    setup(429, { error: { code: 'RATE_LIMITED', message: 'Please wait 12 seconds before asking for another code.' } });
    await userEvent.click(screen.getByRole('button', { name: 'Send a new code' }));
    expect(await screen.findByText('Please wait 12 seconds before asking for another code.')).toBeInTheDocument();
  });
});

describe('the verify page with an authenticator app (issue 48)', () => {
  /** The page as a sign-in answer that offered the app left it. */
  function page(status = 200, body: unknown = { accessToken: 'a', refreshToken: 'r', userID: 'u' }) {
    storage.set('userToken', 'ut-1');
    storage.set('maskedEmail', 'd***@demo.hcp');
    storage.set('mfaMethods', 'totp,recovery,email');
    const fetchMock = vi.fn(async (url: string, _init?: RequestInit) =>
      url.endsWith('/mfa/resend')
        ? new Response(JSON.stringify({ status: 'ok' }), { status: 200 })
        : new Response(JSON.stringify(body), { status }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const router = createMemoryRouter(
      [
        { path: '/login-verify', element: <LoginVerifyRoute /> },
        { path: '/action-needed', element: <p>Action list</p> },
      ],
      { initialEntries: ['/login-verify'] },
    );
    render(
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const sent = () => fetchMock.mock.calls.map(([url, init]) => [url, JSON.parse(String((init as RequestInit).body))]);
    return { sent };
  }

  it('asks for the app’s code first, and sends it as the app’s; nothing says a mail was sent', async () => {
    const { sent } = page();
    expect(screen.getByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(screen.queryByText(/We sent a 6-digit verification code/)).toBeNull();
    const field = screen.getByLabelText('Code from your authenticator app');
    await vi.waitFor(() => expect(field).toHaveFocus());
    expect(screen.queryByRole('button', { name: 'Send a new code' })).toBeNull();
    await userEvent.type(field, '123456{Enter}');
    await screen.findByText('Action list');
    expect(sent()).toEqual([
      [
        '/auth-service/mfa',
        { authToken: 'ut-1', method: 'totp', mfaCode: '123456', dashboard: 'MD Dashboard', rememberMe: false },
      ],
    ]);
    expect(storage.get('mfaMethods')).toBeNull();
  });

  it('takes a recovery code instead, checked before it is sent', async () => {
    const { sent } = page();
    await userEvent.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    await vi.waitFor(() => expect(field).toHaveFocus());
    expect(screen.getByText('Enter one of your recovery codes. Each works once.')).toBeInTheDocument();
    await userEvent.type(field, 'abc{Enter}');
    expect(await screen.findByText('Enter a recovery code as shown, for example ABCDE-FGHJK.')).toBeInTheDocument();
    expect(sent()).toEqual([]);
    await userEvent.clear(field);
    await userEvent.type(field, 'abcde-fghjk{Enter}');
    await screen.findByText('Action list');
    expect(sent()).toEqual([
      [
        '/auth-service/mfa',
        { authToken: 'ut-1', method: 'recovery', recoveryCode: 'abcde-fghjk', dashboard: 'MD Dashboard', rememberMe: false },
      ],
    ]);
  });

  it('mails a code when asked, then says where it went and takes it as the mailed one', async () => {
    const { sent } = page();
    await userEvent.click(screen.getByRole('button', { name: 'Send a code by e-mail instead' }));
    expect(await screen.findByText(/We sent a 6-digit verification code to/)).toHaveTextContent('d***@demo.hcp');
    const field = screen.getByLabelText('Verification code');
    await vi.waitFor(() => expect(field).toHaveFocus());
    expect(screen.getByRole('button', { name: 'Use your authenticator app' })).toBeInTheDocument();
    await userEvent.type(field, '654321{Enter}');
    await screen.findByText('Action list');
    expect(sent()).toEqual([
      ['/auth-service/mfa/resend', { authToken: 'ut-1', dashboard: 'MD Dashboard' }],
      ['/auth-service/mfa', { authToken: 'ut-1', mfaCode: '654321', dashboard: 'MD Dashboard', rememberMe: false }],
    ]);
  });

  it('a user who must add a strong factor goes to add one, not to the list (decision 0060)', async () => {
    const { router } = setup(200, { accessToken: 'restricted', refreshToken: 'r', userID: 'u1', enrolmentRequired: true });
    await submit('123456');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/add-sign-in-factor'));
    expect(readSession()?.accessToken).toBe('restricted');
  });
});
