import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { SignInFactorsSection } from './sign-in-factors.tsx';

const BASE = '/api/mdo/v1/users/u1/sign-in-factors';
const CODES = Array.from(
  { length: 10 },
  (_, n) =>
    `ABCDE-FGH${String(n)
      .padStart(2, '0')
      .replace(/\d/g, (d) => 'JKLMNPQRST'[Number(d)] ?? 'J')}`,
);

type Reply = { status: number; body: unknown };
/** A server of the factor routes, with the account's state as the calls change it. */
function setup(options: { wrongPassword?: boolean } = {}) {
  let app: { addedAt: string } | null = null;
  let left = 0;
  const calls: { url: string; method: string; body: unknown }[] = [];
  const reply = (url: string, method: string, body: Record<string, unknown>): Reply => {
    if (method === 'GET' && url === BASE)
      return { status: 200, body: { authenticatorApp: app, passkeys: [], recoveryCodesLeft: left } };
    if (url === `${BASE}/authenticator-app`)
      return {
        status: 200,
        body: { secret: 'JBSW Y3DP EHPK 3PXP', uri: 'otpauth://totp/x', qrSvg: '<svg xmlns="http://www.w3.org/2000/svg"/>' },
      };
    if (url === `${BASE}/authenticator-app/confirm`) {
      if (body.code !== '123456') {
        const message = 'That code did not match. Check the time on your phone and enter the newest code.';
        return {
          status: 400,
          body: { error: { code: 'VALIDATION_FAILED', message, details: [{ path: 'body.code', message }] } },
        };
      }
      app = { addedAt: '2026-12-03T14:00:00.000Z' };
      left = 10;
      return { status: 200, body: { recoveryCodes: CODES } };
    }
    if (url === `${BASE}/authenticator-app/remove`) {
      if (options.wrongPassword && body.currentPassword !== 'right-password') {
        const message = 'The current password is not correct.';
        return {
          status: 400,
          body: { error: { code: 'VALIDATION_FAILED', message, details: [{ path: 'body.currentPassword', message }] } },
        };
      }
      app = null;
      left = 0;
      return { status: 200, body: { status: 'ok' } };
    }
    return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Not found.' } } };
  };
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const body = init.body ? JSON.parse(String(init.body)) : {};
      calls.push({ url, method, body });
      const { status, body: answer } = reply(url, method, body);
      return new Response(JSON.stringify(answer), { status });
    }),
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <SignInFactorsSection userId="u1" />
    </QueryClientProvider>,
  );
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('Two-step sign-in settings (issue 48)', () => {
  it('sets up an app: QR code and key, a wrong code at its field, then the ten codes once, focus following each step', {
    timeout: 20_000,
  }, async () => {
    const calls = setup();
    expect(await screen.findByText(/Authenticator app:/)).toHaveTextContent('Authenticator app: off.');
    await userEvent.click(screen.getByRole('button', { name: 'Set up an authenticator app' }));
    const form = await screen.findByRole('form', { name: 'Set up an authenticator app' });
    await vi.waitFor(() => expect(within(form).getByRole('heading', { name: 'Set up an authenticator app' })).toHaveFocus());
    expect(within(form).getByRole('img', { name: /QR code of your HCP Portal key/ })).toHaveAttribute(
      'src',
      expect.stringMatching(/^data:image\/svg\+xml;charset=utf-8,%3Csvg/),
    );
    expect(within(form).getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();

    const code = within(form).getByLabelText('Code from your authenticator app');
    await userEvent.type(code, '12');
    await userEvent.click(within(form).getByRole('button', { name: 'Turn on' }));
    expect(await within(form).findByText('Enter the 6-digit code from your authenticator app.')).toBeInTheDocument();
    expect(calls.filter((c) => c.url.endsWith('/confirm'))).toHaveLength(0);
    await userEvent.clear(code);
    await userEvent.type(code, '654321');
    await userEvent.click(within(form).getByRole('button', { name: 'Turn on' }));
    expect(await within(form).findByText(/That code did not match/)).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveFocus();

    await userEvent.clear(code);
    await userEvent.type(code, '123 456{Enter}');
    const shown = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(
      within(shown)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    await vi.waitFor(() => expect(screen.getByRole('heading', { name: 'Save your recovery codes' })).toHaveFocus());
    expect(screen.getByText('Authenticator app added. Keep your recovery codes somewhere safe.')).toHaveAttribute(
      'role',
      'status',
    );
    expect(screen.getByRole('link', { name: 'Download as a text file' })).toHaveAttribute(
      'href',
      expect.stringContaining(encodeURIComponent(CODES[0] as string)),
    );
    expect(
      calls.find((c) => c.url.endsWith('/confirm') && c.body && (c.body as { code: string }).code === '123456'),
    ).toBeDefined();

    await userEvent.click(screen.getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('list', { name: 'Recovery codes' })).toBeNull();
    await vi.waitFor(() => expect(screen.getByText(/Authenticator app:/)).toHaveTextContent(/^Authenticator app: on since /));
    const status = screen.getByText(/Authenticator app:/);
    expect(status).toHaveTextContent('Recovery codes left: 10 of 10.');
    await vi.waitFor(() => expect(status).toHaveFocus());
  });

  it('removes the app only with the right password, the refusal at the field', async () => {
    setup({ wrongPassword: true });
    await userEvent.click(await screen.findByRole('button', { name: 'Set up an authenticator app' }));
    const form = await screen.findByRole('form', { name: 'Set up an authenticator app' });
    await userEvent.type(within(form).getByLabelText('Code from your authenticator app'), '123456{Enter}');
    await userEvent.click(await screen.findByRole('button', { name: 'I have saved them' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Remove the authenticator app' }));
    const remove = screen.getByRole('form', { name: 'Remove the authenticator app' });
    const password = within(remove).getByLabelText('Current password');
    await vi.waitFor(() => expect(password).toHaveFocus());
    await userEvent.type(password, 'wrong{Enter}');
    expect(await within(remove).findByText('The current password is not correct.')).toBeInTheDocument();
    expect(password).toHaveAttribute('aria-invalid', 'true');
    await userEvent.clear(password);
    await userEvent.type(password, 'right-password{Enter}');
    await vi.waitFor(() => expect(screen.getByText(/Authenticator app:/)).toHaveTextContent('Authenticator app: off.'));
    expect(screen.getByText('Authenticator app removed. Sign-in codes come by e-mail again.')).toHaveAttribute('role', 'status');
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Set up an authenticator app' })).toHaveFocus());
  });

  it('says when the settings cannot be loaded, instead of offering a set-up', async () => {
    saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 500 })),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SignInFactorsSection userId="u1" />
      </QueryClientProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load your sign-in settings. Please try again.');
    expect(screen.queryByRole('button', { name: 'Set up an authenticator app' })).toBeNull();
  });
});
