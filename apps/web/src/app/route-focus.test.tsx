import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Page } from '../components/page.tsx';
import { renderRoutes } from '../test/render-routes.tsx';
import { RouteFocus } from './route-focus.tsx';

function Layout() {
  return (
    <>
      <RouteFocus />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p>Loading…</p>}>
          <Outlet />
        </Suspense>
      </main>
    </>
  );
}

/** A screen that first shows a loader (as the shell does while Action Needed first loads), then its page. */
function Slow() {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setReady(true), 50);
    return () => window.clearTimeout(timer);
  }, []);
  return ready ? <Page title="Slow screen" /> : <p>Loading…</p>;
}

const routes = [
  {
    element: <Layout />,
    children: [
      {
        path: '/list',
        element: (
          <Page title="List">
            <Link to="/detail">Open detail</Link>
            <Link to="/list?page=2">Page 2</Link>
            <Link to="/slow">Open slow</Link>
          </Page>
        ),
      },
      { path: '/detail', element: <Page title="Detail" /> },
      { path: '/slow', element: <Slow /> },
    ],
  },
];

describe('RouteFocus', () => {
  it('leaves focus alone on the first screen, then moves it to the new screen’s heading and scrolls to the top', async () => {
    const scrollTo = vi.spyOn(window, 'scrollTo');
    renderRoutes(routes, '/list');
    expect(screen.getByRole('heading', { name: 'List' })).not.toHaveFocus();
    await userEvent.click(screen.getByRole('link', { name: 'Open detail' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Detail' })).toHaveFocus());
    expect(scrollTo).toHaveBeenLastCalledWith(0, 0);
  });

  it('keeps focus where it is when only the query changes (a page of the same list)', async () => {
    const router = renderRoutes(routes, '/list');
    const link = screen.getByRole('link', { name: 'Page 2' });
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(link).toHaveFocus();
  });

  it('waits for a screen that is still loading and focuses its heading when it appears', async () => {
    renderRoutes(routes, '/list');
    await userEvent.click(screen.getByRole('link', { name: 'Open slow' }));
    await screen.findByText('Loading…');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Slow screen' })).toHaveFocus());
  });
});
