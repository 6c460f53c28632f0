import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSession, storage } from '../../../lib/storage.ts';
import GoogleLoginRoute, { loader } from './google-login.tsx';

function setup(status: number, body: unknown) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(
    [
      { path: '/google/:token', loader, Component: GoogleLoginRoute, hydrateFallbackElement: <p>Loading</p> },
      { path: '/action-needed', element: <p>Action list</p> },
      { path: '/login-verify', element: <p>Verify screen</p> },
    ],
    { initialEntries: ['/google/id-token.abc'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetchMock, router };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('google/{token} landing', () => {
  it('exchanges the token once, stores the session and opens action needed', async () => {
    const { fetchMock } = setup(200, { jwtToken: { accessToken: 'a', refreshToken: 'r', userID: 'u' } });
    expect(await screen.findByText('Action list')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect((fetchMock.mock.calls[0] as unknown as [string])[0]).toBe('/auth/mdo/google/id-token.abc');
    expect(readSession()).toEqual({ accessToken: 'a', refreshToken: 'r', userId: 'u' });
  });

  it('goes to /login-verify with the challenge for an MFA user', async () => {
    setup(200, { mfaResponse: { maskedEmail: 'd***@x.com', maskedPhone: '(***) ***-1234', userToken: 'ut' } });
    expect(await screen.findByText('Verify screen')).toBeInTheDocument();
    expect(storage.get('userToken')).toBe('ut');
    expect(readSession()).toBeNull();
  });

  it("shows the server's refusal and a way back to sign in", async () => {
    setup(401, { error: { code: 'UNAUTHORIZED', message: 'No HCP Portal account uses this Google address.' } });
    expect(await screen.findByRole('alert')).toHaveTextContent('No HCP Portal account uses this Google address.');
    expect(screen.getByRole('link', { name: 'Back to sign in' })).toHaveAttribute('href', '/login');
    expect(readSession()).toBeNull();
  });
});
