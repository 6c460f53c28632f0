import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense, useEffect, useState } from 'react';
import { Link, Outlet, useNavigate } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { Page } from '../components/page.tsx';
import { FOCUS_KEY, type FocusOnArrival, placesAfterOpened } from '../lib/focus.ts';
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

/** A list of marked items, as Action Needed draws them; `gone` have been decided. */
function Items({ gone = [] }: { gone?: string[] }) {
  return (
    <Page title="Items">
      <ul>
        {['a', 'b', 'c', 'd']
          .filter((key) => !gone.includes(key))
          .map((key) => (
            <li key={key}>
              <Link to={`/item/${key}`} {...{ [FOCUS_KEY]: key }}>
                Item {key}
              </Link>
            </li>
          ))}
      </ul>
    </Page>
  );
}

/** An item's own page: deciding goes back to the list with the places after it, as the detail page does. */
function ItemPage() {
  const navigate = useNavigate();
  return (
    <Page title="Item">
      <button
        type="button"
        onClick={() => navigate('/items', { state: { focusKeys: placesAfterOpened() } satisfies FocusOnArrival })}
      >
        Decide
      </button>
    </Page>
  );
}

let decided: string[] = [];
function DecidedItems() {
  return <Items gone={decided} />;
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
      { path: '/items', element: <DecidedItems /> },
      { path: '/item/:key', element: <ItemPage /> },
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

  it('after a decision on an item’s own page, focus goes to the item that followed it in the list (issue 47)', async () => {
    decided = [];
    renderRoutes(routes, '/items');
    // Opened by keyboard (Enter on the link is a click too).
    screen.getByRole('link', { name: 'Item b' }).focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Item' })).toHaveFocus());
    expect(placesAfterOpened()).toEqual(['c', 'd']);
    decided = ['b'];
    await userEvent.click(screen.getByRole('button', { name: 'Decide' }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Item c' })).toHaveFocus());
  });

  it('after deciding the last item, focus goes to the list’s heading; when the next one is gone too, to the one after', async () => {
    decided = [];
    renderRoutes(routes, '/items');
    await userEvent.click(screen.getByRole('link', { name: 'Item d' }));
    expect(placesAfterOpened()).toEqual([]);
    decided = ['d'];
    await userEvent.click(await screen.findByRole('button', { name: 'Decide' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Items' })).toHaveFocus());

    decided = [];
    await userEvent.click(screen.getByRole('link', { name: 'Item a' }));
    // Meanwhile someone else decided b.
    decided = ['a', 'b'];
    await userEvent.click(await screen.findByRole('button', { name: 'Decide' }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'Item c' })).toHaveFocus());
  });
});
