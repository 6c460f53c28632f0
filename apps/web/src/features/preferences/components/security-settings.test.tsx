import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { SecuritySettings } from './security-settings.tsx';

type Handler = (url: string, init: RequestInit) => { status: number; body: unknown };
function setup(handler: Handler) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const { status, body } = handler(url, init);
    return new Response(JSON.stringify(body), { status });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SecuritySettings userId="u1" />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const devices = (count: number) => ({ status: 200, body: { count } });

describe('SecuritySettings', () => {
  it('changes the password with the current one and confirms it', async () => {
    const fetchMock = setup((_url, init) => (init.method === 'POST' ? { status: 200, body: { status: 'ok' } } : devices(0)));
    const form = screen.getByRole('form', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'demo-password-2026');
    await userEvent.type(within(form).getByLabelText('New password'), 'another-long-password');
    await userEvent.type(within(form).getByLabelText('Repeat the new password'), 'another-long-password');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Your password has been changed. Your other sessions were signed out.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST') as [string, RequestInit];
    expect(call[0]).toBe('/api/mdo/v1/users/u1/update-password');
    expect(JSON.parse(String(call[1].body))).toEqual({
      currentPassword: 'demo-password-2026',
      newPassword: 'another-long-password',
    });
  });

  it('checks the repeat before calling the server and shows a wrong current password at its field', async () => {
    const fetchMock = setup((_url, init) =>
      init.method === 'POST'
        ? {
            status: 400,
            body: {
              error: {
                code: 'VALIDATION_FAILED',
                message: 'Current password is incorrect.',
                details: [{ path: 'body.currentPassword', message: 'Current password is incorrect.' }],
              },
            },
          }
        : devices(0),
    );
    const form = screen.getByRole('form', { name: 'Change password' });
    await userEvent.type(within(form).getByLabelText('Current password'), 'wrong-password-1');
    await userEvent.type(within(form).getByLabelText('New password'), 'another-long-password');
    await userEvent.type(within(form).getByLabelText('Repeat the new password'), 'different-long-password');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('The two passwords do not match.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);

    await userEvent.clear(within(form).getByLabelText('Repeat the new password'));
    await userEvent.type(within(form).getByLabelText('Repeat the new password'), 'another-long-password');
    await userEvent.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Current password is incorrect.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
  });

  it('shows how many devices are remembered and forgets them', async () => {
    let remembered = 2;
    setup((_url, init) => {
      if (init.method === 'DELETE') {
        remembered = 0;
        return { status: 200, body: { status: 'ok' } };
      }
      return devices(remembered);
    });
    expect(await screen.findByText('2 devices skip the verification code for up to 30 days.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Forget remembered devices' }));
    expect(await screen.findByText('No device skips the verification code.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forget remembered devices' })).toBeDisabled();
  });
});
