/** Issue 48, decision 0060: the provider's admin requires a strong factor of everyone and turns mailed codes off. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { SignInPolicySection } from './sign-in-policy-form.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

function setup(answer: { status: number; body: unknown }) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'admin' });
  const fetchMock = vi.fn(async (_url: string, init: RequestInit = {}) => {
    const body = init.method === 'PUT' ? JSON.parse(String(init.body)) : answer.body;
    return new Response(JSON.stringify(body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SignInPolicySection />
      <Toaster />
    </QueryClientProvider>,
  );
  return fetchMock;
}

describe('SignInPolicySection', () => {
  it('saves what the admin ticked', async () => {
    const fetchMock = setup({ status: 200, body: { strongFactorRequired: false, emailCodesAllowed: true } });
    const require = await screen.findByRole('checkbox', { name: 'Require a passkey or an authenticator app' });
    expect(screen.getByRole('button', { name: 'Save sign-in policy' })).toBeDisabled();
    await userEvent.click(require);
    await userEvent.click(screen.getByRole('checkbox', { name: /Allow a code by e-mail instead/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save sign-in policy' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(put?.[0]).toBe('/api/mdo/v1/sign-in-policy');
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ strongFactorRequired: true, emailCodesAllowed: false });
    expect(await screen.findByText(/Everyone must have a passkey or an authenticator app/)).toBeInTheDocument();
  });

  it('says so when the policy cannot be loaded', async () => {
    setup({ status: 500, body: { error: { code: 'INTERNAL', message: 'x', details: [], requestId: 'r' } } });
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the sign-in policy. Please try again.');
  });
});
