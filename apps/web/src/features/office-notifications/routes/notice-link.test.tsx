import { NOTICE_LINK_MESSAGES } from '@hcp/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import NoticeLinkRoute, { loader } from './notice-link.tsx';

function setup(status: number, body: unknown, signedIn = true) {
  if (signedIn) saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async () => new Response(JSON.stringify(body), { status }));
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(
    [
      { path: '/notice/:code', loader, Component: NoticeLinkRoute, hydrateFallbackElement: <p>Loading</p> },
      { path: '/action-needed', element: <p>Action list</p> },
    ],
    { initialEntries: ['/notice/ABCD-EFGH-JKMN-PQRS'] },
  );
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/notice/{code}', () => {
  it('uses the link once, with the code in the body (not the API path), and opens Action Needed', async () => {
    const fetchMock = setup(200, { practiceId: 'o1' });
    expect(await screen.findByText('Action list')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/mdo/v1/users/u1/notice-links/redeem');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ code: 'ABCD-EFGH-JKMN-PQRS' });
  });

  it('says when the link was used or expired, and still offers the list', async () => {
    setup(410, { error: { code: 'GONE', message: 'gone' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(NOTICE_LINK_MESSAGES.used);
    expect(screen.getByRole('link', { name: 'Go to Action Needed' })).toHaveAttribute('href', '/action-needed');
  });

  it('says when the link is not for this account', async () => {
    setup(404, { error: { code: 'NOT_FOUND', message: 'not found' } });
    expect(await screen.findByRole('alert')).toHaveTextContent(NOTICE_LINK_MESSAGES.notFound);
  });

  it('calls nothing while signed out (the shell sends the user to sign in and back)', async () => {
    const fetchMock = setup(200, {}, false);
    expect(await screen.findByText('Opening your practice’s requests…')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
