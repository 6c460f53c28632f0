import { QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BrandProvider } from '../lib/brand/brand.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { saveSession } from '../lib/storage.ts';
import {
  actionNeeded,
  commentRecord,
  newComments,
  patientDetail,
  prescription,
  stubServer,
  threadPatient,
} from '../test/fixtures.ts';
import { TUTORIAL_TITLE } from './modals/tutorial-modal.tsx';
import { routes } from './routes.tsx';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient(() => {})}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

/** The server with the answers whose URL holds `part` held back until the returned function is called. */
function holdAnswers(part: string): () => void {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const base = stubServer();
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (String(url).includes(part)) await released;
      return base(url, init);
    }),
  );
  return release;
}
const holdUserDetails = () => holdAnswers('/mdo-user-details');

/** With the brand provider, as the app runs: the header reads the user through it. */
function renderWithBrand(path: string) {
  render(
    <QueryClientProvider client={createQueryClient(() => {})}>
      <BrandProvider>
        <RouterProvider router={createMemoryRouter(routes, { initialEntries: [path] })} />
      </BrandProvider>
    </QueryClientProvider>,
  );
}

const signIn = () => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' });

beforeEach(() => {
  stubServer();
});
afterEach(() => vi.unstubAllGlobals());

describe('routing', () => {
  it('root redirects to action needed, which needs a session, so a signed-out user lands on login', async () => {
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('root takes a signed-in user to action needed', async () => {
    signIn();
    const router = renderAt('/');
    expect(await screen.findByRole('heading', { name: 'Action Needed' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/action-needed');
  });

  it('an unknown path redirects to not-found, which offers a way back', async () => {
    const router = renderAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/not-found');
    expect(screen.getByRole('link', { name: 'Go to sign in' })).toHaveAttribute('href', '/login');
  });

  it('the sign-in page has a footer with the terms and a support line; the terms open signed out', async () => {
    const router = renderAt('/login');
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    const footer = screen.getByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Terms of Use' })).toHaveAttribute('href', '/terms-of-use');
    expect(within(footer).getByRole('link', { name: /@/ })).toHaveAttribute('href', expect.stringMatching(/^mailto:/));
    expect(within(footer).getByRole('link', { name: /\d{3}/ })).toHaveAttribute('href', expect.stringMatching(/^tel:\+?\d+$/));
    await userEvent.click(within(footer).getByRole('link', { name: 'Terms of Use' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Terms of Use' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/terms-of-use');
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
  });

  it('needs both an access token and a user id', async () => {
    window.localStorage.setItem('hcp.accessToken', 'a');
    const router = renderAt('/rx-list');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it.each([
    ['/patient-search', 'All Patients'],
    ['/patients/p1', 'Patient'],
    ['/new-comments', 'New Comments'],
    ['/new-comments/p1', 'Comments from Jane Doe'],
    ['/prescribe', 'Prescribe Rx'],
    ['/preferences', 'Preferences'],
    ['/manage-accounts', 'Manage Accounts'],
    ['/manage-comms/practices', 'Manage Communications'],
    ['/terms-of-use', 'Terms of Use'],
    ['/practice-preferences/o1', 'Practice Preferences'],
    ['/rx-list', 'New Prescriptions List (0)'],
    ['/action-needed/rx1/refillAuth', 'Prescription'],
  ])('signed in, %s shows %s inside the shell', async (path, title) => {
    signIn();
    renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main' })).toBeInTheDocument();
  });

  it.each([
    ['/login', 'Sign in'],
    ['/password-reset-request', 'Reset your password'],
    ['/password-reset/tok123', 'Choose a new password'],
    ['/password-reset-expired', 'This reset link has expired'],
    ['/getcovered', 'Get Covered'],
    ['/appeals-form', 'HCP Appeal'],
    ['/not-found', 'Page not found'],
  ])('public route %s opens without a session', async (path, title) => {
    const router = renderAt(path);
    expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
  });

  it('the Get Covered form needs an opened appeal, else it asks for the NPI and key (keeping the link)', async () => {
    const router = renderAt('/getcovered-form?npi=1234567893&key=ABCDEF');
    expect(await screen.findByRole('heading', { level: 1, name: 'Get Covered' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/getcovered');
    expect(screen.getByLabelText('Prescriber NPI')).toHaveValue('1234567893');
    expect(screen.getByLabelText('Access key')).toHaveValue('ABCDEF');
  });

  it('the verify page needs a pending MFA challenge, else it goes to login', async () => {
    window.sessionStorage.setItem('hcp.userToken', 'ut');
    window.sessionStorage.setItem('hcp.maskedEmail', 'd***n@demo.hcp');
    renderAt('/login-verify');
    expect(await screen.findByRole('heading', { level: 1, name: 'Verify it’s you' })).toBeInTheDocument();
    expect(screen.getByText('d***n@demo.hcp')).toBeInTheDocument();
    window.sessionStorage.clear();
    const router = renderAt('/login-verify');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
  });

  it('the reset page without a token goes to the reset request', async () => {
    const router = renderAt('/password-reset');
    expect(await screen.findByRole('heading', { level: 1, name: 'Reset your password' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/password-reset-request');
  });

  it('logout clears the session and goes to login', async () => {
    signIn();
    const router = renderAt('/logout');
    await screen.findByRole('heading', { name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem('hcp.accessToken')).toBeNull();
  });

  it('marks the active tab from the path prefix and makes it inert', async () => {
    signIn();
    renderAt('/patients/p1');
    await screen.findByRole('heading', { name: 'Patient' });
    const active = screen.getByText('All Patients');
    expect(active).toHaveAttribute('aria-current', 'page');
    expect(screen.queryByRole('link', { name: 'All Patients' })).not.toBeInTheDocument();
    const actionNeeded = screen.getByRole('link', { name: /^Action Needed/ });
    expect(actionNeeded).toHaveAttribute('href', '/action-needed');
    // The count of items (one refill request in the stubbed answer) is part of the tab.
    expect(actionNeeded).toHaveTextContent('Action Needed1');
  });

  it('shows the New Comments tab with its count, and hides it at zero', async () => {
    signIn();
    renderAt('/patient-search');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    expect(await within(nav).findByRole('link', { name: /^New Comments/ })).toHaveTextContent('New Comments1');
    cleanup();
    stubServer({ newComments: newComments(0) });
    renderAt('/patient-search');
    await screen.findByRole('heading', { level: 1, name: 'All Patients' });
    expect(within(screen.getByRole('navigation', { name: 'Main' })).queryByRole('link', { name: /^New Comments/ })).toBeNull();
  });

  it('reading the last new comment sends the user to patient search (spec §2), and a reply is posted', async () => {
    let unread = 1;
    const fetchMock = stubServer({
      routes: (url) => {
        if (url.includes('/office-mentions')) {
          unread = 0;
          return { status: 200, body: { status: 'SUCCESS', marked: 1 } };
        }
        if (url.includes('/rx-comment')) {
          return {
            status: 200,
            body: { status: 'SUCCESS', comment: commentRecord({ id: 'c2', body: 'On it.', unread: false, mentionId: null }) },
          };
        }
        if (url.includes('/doctor-list-search')) return { status: 200, body: newComments(unread) };
        return undefined;
      },
    });
    signIn();
    const router = renderAt('/new-comments/p1');
    expect(await screen.findByText('Can I get a refill before my trip?')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Reply'), 'On it.');
    await userEvent.click(screen.getByRole('button', { name: 'Send reply' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/rx-comment'))).toBe(true));
    await userEvent.click(screen.getByRole('button', { name: 'Mark as read' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/patient-search'));
  });

  it('a thread names its patient (name, DOB) and what each comment is about', async () => {
    signIn();
    renderAt('/new-comments/p1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Comments from Jane Doe' })).toBeInTheDocument();
    expect(screen.getByText('DOB 04/05/1970')).toBeInTheDocument();
    const comment = within(screen.getByRole('list', { name: 'Comments, oldest first' })).getByRole('listitem');
    expect(comment).toHaveTextContent('Jane Doe (patient)');
    expect(comment).toHaveTextContent('about Atorvastatin 20 mg');
    expect(comment).not.toHaveTextContent(/^Patient/);
  });

  it('the patient page’s comments link opens the thread even when nothing is unread (no bounce to All Patients)', async () => {
    stubServer({
      newComments: newComments(0),
      routes: (url) =>
        url.includes('/all-rx-comment')
          ? {
              status: 200,
              body: { total: 1, records: [commentRecord({ unread: false, mentionId: null })], patient: threadPatient },
            }
          : url.includes('/patients/p1')
            ? { status: 200, body: patientDetail() }
            : undefined,
    });
    signIn();
    const router = renderAt('/patients/p1');
    await userEvent.click(await screen.findByRole('link', { name: 'Read and answer the patient’s comments' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Comments from Jane Doe' })).toBeInTheDocument();
    expect(screen.getByLabelText('Reply')).toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(router.state.location.pathname).toBe('/new-comments/p1');
  });

  it('sends a user with nothing to act on from action needed to patient search (spec §2 menu rule)', async () => {
    stubServer({ actionNeeded: { doctors: [] } });
    signIn();
    const router = renderAt('/action-needed');
    expect(await screen.findByRole('heading', { level: 1, name: 'All Patients' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/patient-search');
  });

  it('a list emptied while a write is on its way stays until the write’s outcome is told, then leaves', async () => {
    // A live update can refresh the list before the write's own answer arrives (CI: signing all 20 prepared items
    // lost its "Signed 20 as prepared."): leaving then unmounted what tells the user the outcome.
    let emptied = false;
    let answerSign: () => void = () => {};
    const signAnswered = new Promise<void>((resolve) => {
      answerSign = resolve;
    });
    const prepared = {
      decision: { action: 'refillDenied', reason: 'NEED_OFFICE_VISIT', note: null },
      preparedByName: 'Lee Staff',
      preparedAt: '2026-11-27T15:00:00.000Z',
    } as const;
    const fetchMock = stubServer({
      routes: (url) =>
        url.includes('/prepared-decisions/sign')
          ? signAnswered.then(() => ({
              status: 200,
              body: { done: 1, refused: 0, results: [{ id: prescription().id, status: 'done' }] },
            }))
          : url.includes('/action-needed')
            ? { status: 200, body: emptied ? { doctors: [] } : actionNeeded([prescription({ prepared })]) }
            : undefined,
    });
    signIn();
    const client = createQueryClient(() => {});
    const router = createMemoryRouter(routes, { initialEntries: ['/action-needed'] });
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    const section = await screen.findByRole('region', { name: 'Ready to sign (1)' });
    await userEvent.click(within(section).getByRole('button', { name: 'Sign all 1 as prepared' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign 1 as prepared?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and send 1' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/prepared-decisions/sign'))).toBe(true));
    // The live update: the list is refreshed and comes back empty while the signature's answer is held.
    emptied = true;
    const listReads = () => fetchMock.mock.calls.filter(([u]) => String(u).includes('/action-needed')).length;
    const before = listReads();
    await client.invalidateQueries();
    await vi.waitFor(() => expect(listReads()).toBeGreaterThan(before));
    expect(router.state.location.pathname).toBe('/action-needed');
    answerSign();
    expect(await screen.findByText('Signed 1 as prepared.')).toBeInTheDocument();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/patient-search'));
  });

  it('draws the header whole, once the user and the feature flags are known (no links popping in, no layout shift)', async () => {
    const releaseUser = holdUserDetails();
    signIn();
    renderWithBrand('/patient-search');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
    expect(screen.queryByRole('navigation', { name: 'Account' })).toBeNull();
    releaseUser();
    const account = await screen.findByRole('navigation', { name: 'Account' });
    // Everything the user's details decide is there in the first drawing of the header.
    expect(within(account).getByText('Dr. Alex Morgan')).toBeInTheDocument();
    expect(within(account).getByRole('link', { name: 'Log Out' })).toBeInTheDocument();
  });

  // Issue 50: a tab or a badge arriving after the tabs were drawn wrapped them at phone width and moved the screen.
  it.each([
    ['the new-comment count', '/doctor-list-search', /New Comments/],
    ['the Action Needed list', '/action-needed', /Action Needed\s*\d+/],
  ])('draws the tabs whole, once %s has answered (nothing pops in and wraps the tabs)', async (_what, held, tab) => {
    const release = holdAnswers(held);
    signIn();
    renderWithBrand('/patient-search');
    expect(await screen.findByRole('status')).toHaveTextContent('Loading…');
    // The other answers have been asked for (and the stub answers at once); the tabs still wait for the held one.
    await vi.waitFor(() =>
      expect(vi.mocked(fetch).mock.calls.some(([url]) => String(url).includes('/mdo-user-details'))).toBe(true),
    );
    expect(screen.queryByRole('navigation', { name: 'Main' })).toBeNull();
    release();
    const tabs = await screen.findByRole('navigation', { name: 'Main' });
    expect(within(tabs).getByRole('link', { name: tab })).toBeInTheDocument();
  });

  it('the tutorial opens over the loader, before the user is known, and stays the same dialog when the screen arrives', async () => {
    const releaseUser = holdUserDetails();
    signIn();
    localStorage.removeItem('hcp.tutorialDismissed');
    sessionStorage.removeItem('hcp.tutorialClosed');
    renderWithBrand('/patient-search');
    const tutorial = await screen.findByRole('dialog', { name: TUTORIAL_TITLE });
    expect(tutorial).toHaveAttribute('open');
    expect(screen.getByRole('status')).toHaveTextContent('Loading…');
    releaseUser();
    await screen.findByRole('navigation', { name: 'Account' });
    // The same element, still open: not closed and opened again (no second announcement, focus kept).
    expect(screen.getByRole('dialog', { name: TUTORIAL_TITLE })).toBe(tutorial);
    expect(tutorial).toHaveAttribute('open');
  });

  it('the tutorial video is focusable as the dialog opens and gets its controls a task later (issue 50)', async () => {
    signIn();
    localStorage.removeItem('hcp.tutorialDismissed');
    sessionStorage.removeItem('hcp.tutorialClosed');
    renderWithBrand('/patient-search');
    const tutorial = await screen.findByRole('dialog', { name: TUTORIAL_TITLE });
    const video = tutorial.querySelector('video');
    // Focusable before its controls exist, so the dialog's first focus lands on it as it did with them.
    expect(video?.tabIndex).toBe(0);
    await vi.waitFor(() => expect(video).toHaveAttribute('controls'));
  });

  it('drawing the shell reads no computed style of the page (a forced style recalculation on a phone, issue 50)', async () => {
    signIn();
    localStorage.setItem('hcp.tutorialDismissed', 'true');
    const computed = vi.spyOn(window, 'getComputedStyle');
    renderWithBrand('/patient-search');
    // Waited for without a role query: those read computed styles themselves.
    await vi.waitFor(() => expect(document.querySelector('nav[aria-label="Account"]')).not.toBeNull());
    expect(computed.mock.calls.filter(([element]) => element === document.documentElement)).toEqual([]);
    computed.mockRestore();
  });

  it('a failed user-details call still draws the shell (with what it can), not an endless loader', async () => {
    stubServer({
      routes: (url) =>
        url.includes('/mdo-user-details')
          ? { status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side. Please try again.' } } }
          : undefined,
    });
    signIn();
    renderAt('/patient-search');
    // After the query client's retries (about 3 s), not never.
    expect(await screen.findByRole('navigation', { name: 'Account' }, { timeout: 12_000 })).toBeInTheDocument();
  }, 15_000);
});
