import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { readSession, storage } from '../../../lib/storage.ts';
import { LoginFormCard, resolverLoading } from './login-form.tsx';

function setup(answer: { status: number; body: unknown }) {
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(answer.body), { status: answer.status }));
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginFormCard /> },
      { path: '/action-needed', element: <p>Action list</p> },
      { path: '/login-verify', element: <p>Verify page</p> },
    ],
    { initialEntries: ['/login'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetchMock, router };
}

async function fill(email: string, password: string) {
  if (email) await userEvent.type(screen.getByLabelText('Email'), email);
  if (password) await userEvent.type(screen.getByLabelText('Password'), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

afterEach(() => vi.unstubAllGlobals());

describe('LoginFormCard', () => {
  it('checks the fields before calling the server', async () => {
    const { fetchMock } = setup({ status: 200, body: {} });
    await fill('not-an-email', '');
    expect(await screen.findByText('Enter a valid email address.')).toBeInTheDocument();
    expect(screen.getByText('Password is required.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('aria-invalid', 'true');
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('sends the login payload and signs in on tokens', async () => {
    const { fetchMock, router } = setup({
      status: 200,
      body: { jwtToken: { accessToken: 'a1', refreshToken: 'r1', userID: 'u1' } },
    });
    await fill('dr.morgan@demo.hcp', 'secret-password');
    await screen.findByText('Action list');
    expect(router.state.location.pathname).toBe('/action-needed');
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/auth-service/login');
    expect(JSON.parse(String(init.body))).toEqual({
      email: 'dr.morgan@demo.hcp',
      username: 'dr.morgan@demo.hcp',
      password: 'secret-password',
      dashboard: 'MD Dashboard',
    });
    expect(readSession()).toEqual({ accessToken: 'a1', refreshToken: 'r1', userId: 'u1' });
  });

  it('keeps the MFA challenge in session storage and goes to verify', async () => {
    const { router } = setup({
      status: 200,
      body: { mfaResponse: { maskedEmail: 'd***@demo.hcp', maskedPhone: '***-0112', userToken: 'ut-1' } },
    });
    await fill('dr.patel@demo.hcp', 'secret-password');
    await screen.findByText('Verify page');
    expect(router.state.location.pathname).toBe('/login-verify');
    expect(storage.get('userToken')).toBe('ut-1');
    expect(window.sessionStorage.getItem('hcp.maskedEmail')).toBe('d***@demo.hcp');
    expect(readSession()).toBeNull();
  });

  it("shows the server's message when sign-in fails", async () => {
    setup({ status: 401, body: { error: { code: 'UNAUTHORIZED', message: 'Email or password is incorrect.' } } });
    await fill('dr.morgan@demo.hcp', 'wrong-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('Email or password is incorrect.');
  });
});

describe('the form rules, loaded when first needed', () => {
  const options = { fields: {}, shouldUseNativeValidation: false } as const;
  const values = { email: 'not-an-email', password: '' };

  it('check the fields once they have arrived', async () => {
    const resolve = resolverLoading(() => import('../utils/login-form-schema.ts'));
    const result = await resolve(values, undefined, options);
    expect(Object.keys(result.errors)).toEqual(expect.arrayContaining(['email', 'password']));
  });

  it('let the form go to the server, which checks the same rules, when they never arrive', async () => {
    const resolve = resolverLoading(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    expect(await resolve(values, undefined, options)).toEqual({ values, errors: {} });
  });
});
