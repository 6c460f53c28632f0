import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { userDetails } from '../../../test/fixtures.ts';
import { ProfileForm } from './profile-form.tsx';

function setup(user = userDetails({ userId: 'u1' })) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async (_url: string, init: RequestInit = {}) => {
    const sent = JSON.parse(String(init.body));
    const answer = { ...user, mdOfficeUserPrefs: { ...user.mdOfficeUserPrefs, newRequestNotices: sent.newRequestNotices } };
    return new Response(JSON.stringify(answer), { status: 200 });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={createMemoryRouter([{ path: '/', element: <ProfileForm user={user} /> }])} />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('ProfileForm notices', () => {
  it('turns the e-mail of new requests off and sends the choice with the rest', async () => {
    const fetchMock = setup();
    const box = screen.getByRole('checkbox', { name: 'E-mail me when the pharmacy sends new requests' });
    expect(box).toBeChecked();
    expect(box).toHaveAccessibleDescription(/At most one e-mail every 15 minutes, with counts only/);
    await userEvent.click(box);
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/mdo/v1/users/u1/preferences');
    expect(JSON.parse(String(init.body))).toMatchObject({ newRequestNotices: false, skipErxConfirmation: false });
    await vi.waitFor(() => expect(box).not.toBeChecked());
  });

  it('turns the check before faxed decisions off (or back on) and sends it with the rest', async () => {
    const fetchMock = setup();
    const box = screen.getByRole('checkbox', { name: /^Send faxed decisions .* without showing me what will be sent first$/ });
    expect(box).not.toBeChecked();
    await userEvent.click(box);
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(String(init.body))).toMatchObject({ skipSendConfirmation: true });
  });

  it('is not offered to someone without a practice (the provider’s users get no practice notices)', () => {
    setup(
      userDetails({ userId: 'u1', role: 'provider.admin', mdOfficeUser: null, details: { mdOfficeId: null, mdStaffId: null } }),
    );
    expect(screen.queryByRole('checkbox', { name: /new requests/ })).toBeNull();
  });
});
