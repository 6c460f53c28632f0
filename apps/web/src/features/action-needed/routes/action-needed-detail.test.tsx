import type { UserDetails } from '@hcp/contract';
import { focusManager, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setErrorReporter } from '../../../lib/error-reporting.ts';
import { createQueryClient } from '../../../lib/query-client.ts';
import { saveSession } from '../../../lib/storage.ts';
import { actionNeeded, prescription, stubServer, userDetails } from '../../../test/fixtures.ts';
import { ACTION_NEEDED_ROUTES, renderActionNeeded } from './test-routes.tsx';

const RX = '11111111-1111-4111-8111-111111111111';

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

const renderDetail = (path: string) => renderActionNeeded(path, [{ path: '/appeals-form', element: <h1>HCP Appeal</h1> }]);

const posted = (fetchMock: ReturnType<typeof stubServer>, fragment: string) =>
  fetchMock.mock.calls.filter(([url, init]) => String(url).includes(fragment) && init?.method === 'POST') as unknown as [
    string,
    RequestInit,
  ][];

/** The signed-in user with some of their own choices changed. */
const userWith = (prefs: Partial<UserDetails['mdOfficeUserPrefs']>) =>
  userDetails({ mdOfficeUserPrefs: { ...userDetails().mdOfficeUserPrefs, ...prefs } });
/** Every action call succeeds. */
const actionsSucceed = (_url: string, init: RequestInit) =>
  init.method === 'POST' ? { status: 200, body: { status: 'OK', prescriptionIds: [RX] } } : undefined;

describe('refill authorization screen', () => {
  it('authorizes by fax with refills and sig, then returns to the list', async () => {
    const fetchMock = stubServer({
      routes: actionsSucceed,
    });
    const router = renderDetail(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByRole('heading', { level: 1, name: 'Refill authorization: Atorvastatin' })).toBeInTheDocument();
    expect(screen.getByText('Jane Doe')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('Refills'), '5');
    await userEvent.clear(screen.getByLabelText('Sig (directions)'));
    await userEvent.type(screen.getByLabelText('Sig (directions)'), 'Take one at night');
    await userEvent.click(screen.getByRole('button', { name: 'Authorize by fax' }));
    // What goes, how and to whom, before it goes (issue 21); nothing is sent until it is confirmed.
    const dialog = await screen.findByRole('dialog', { name: 'Send this refill authorization by fax?' });
    expect(dialog).toHaveTextContent(
      'To the pharmacy, by fax: Atorvastatin 20 mg for Jane Doe. 5 refill(s), “Take one at night”. Signed Dr. Alex Morgan.',
    );
    expect(posted(fetchMock, '/refills-authorized/fax')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send by fax' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    const [[url, init]] = posted(fetchMock, '/refills-authorized/fax') as [[string, RequestInit]];
    expect(url).toBe(`/api/mdo/v1/prescriptions/${RX}/refills-authorized/fax`);
    expect(JSON.parse(String(init.body))).toEqual({ refills: 5, sig: 'Take one at night', senderName: 'Dr. Alex Morgan' });
    expect(new Headers(init.headers).get('x-request-id')).toMatch(/^[A-Za-z0-9]{24}$/);
  });

  it('offers only fax when an “always send by fax” standing rule routes the request, and says which rule', async () => {
    stubServer({ actionNeeded: actionNeeded([prescription({ faxByRule: 'Levothyroxine by fax' })]) });
    renderDetail(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByText('Authorization goes by fax: rule “Levothyroxine by fax”.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Authorize by fax' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Authorize by eRx' })).toBeNull();
  });

  it('office staff preparing a fax-routed request are not offered eRx', async () => {
    stubServer({
      user: userDetails({ mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } }),
      actionNeeded: actionNeeded([prescription({ faxByRule: 'Levothyroxine by fax' })]),
    });
    renderDetail(`/action-needed/${RX}/refillAuth`);
    const form = await screen.findByRole('form', { name: 'Prepare for the prescriber’s signature' });
    expect(within(form).getByRole('radio', { name: 'Authorize by fax' })).toBeInTheDocument();
    expect(within(form).queryByRole('radio', { name: 'Authorize by eRx' })).toBeNull();
  });

  it('asks before sending by eRx; "don’t ask again" is saved with the call', async () => {
    const fetchMock = stubServer({
      routes: actionsSucceed,
    });
    renderDetail(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Authorize by eRx' }));
    const dialog = screen.getByRole('dialog', { name: 'Send this refill authorization by eRx?' });
    await userEvent.click(within(dialog).getByLabelText('Don’t ask me again'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send by eRx' }));
    await vi.waitFor(() => expect(posted(fetchMock, '/refills-authorized/erx')).toHaveLength(1));
    const [[, init]] = posted(fetchMock, '/refills-authorized/erx') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({ skipErxConfirmation: true });
  });

  it('"don’t ask again" holds for the next item at once, without a reload (cached user details updated)', async () => {
    const RX2 = '22222222-2222-4222-8222-222222222222';
    let skip = false;
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([prescription(), prescription({ id: RX2 })]),
      routes: (url, init) => {
        if (init.method === 'POST') {
          if (url.includes('/refills-authorized/erx') && JSON.parse(String(init.body)).skipErxConfirmation) skip = true;
          return { status: 200, body: { status: 'OK', prescriptionIds: [RX] } };
        }
        return url.includes('/mdo-user-details')
          ? {
              status: 200,
              body: userWith({ skipErxConfirmation: skip }),
            }
          : undefined;
      },
    });
    const router = createMemoryRouter(ACTION_NEEDED_ROUTES, { initialEntries: [`/action-needed/${RX}/refillAuth`] });
    // The app's own client: user details stay fresh for minutes, so only an update makes the choice visible.
    render(
      <QueryClientProvider client={createQueryClient(() => {})}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Authorize by eRx' }));
    const dialog = screen.getByRole('dialog', { name: 'Send this refill authorization by eRx?' });
    await userEvent.click(within(dialog).getByLabelText('Don’t ask me again'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send by eRx' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    const links = await screen.findAllByRole('link', { name: 'Refill authorization: Atorvastatin for Jane Doe' });
    await userEvent.click(links.find((a) => a.getAttribute('href')?.includes(RX2)) as HTMLElement);
    await userEvent.click(await screen.findByRole('button', { name: 'Authorize by eRx' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(posted(fetchMock, '/refills-authorized/erx')).toHaveLength(2));
    expect(JSON.parse(String(posted(fetchMock, '/refills-authorized/erx')[1]?.[1].body))).toEqual({});
  });

  it('a denial shows what goes first; Cancel sends nothing; “don’t ask again” is saved with the call and holds at once', async () => {
    let skip = false;
    const fetchMock = stubServer({
      routes: (url, init) => {
        if (init.method === 'POST') {
          if (JSON.parse(String(init.body)).skipSendConfirmation) skip = true;
          return { status: 200, body: { status: 'OK', prescriptionIds: [RX] } };
        }
        return url.includes('/mdo-user-details')
          ? {
              status: 200,
              body: userWith({ skipSendConfirmation: skip }),
            }
          : undefined;
      },
    });
    const router = renderDetail(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByLabelText('The patient needs an office visit'));
    await userEvent.click(screen.getByRole('button', { name: 'Deny refill' }));
    let dialog = await screen.findByRole('dialog', { name: 'Send this refill denial?' });
    expect(dialog).toHaveTextContent(
      'To the pharmacy, by fax: Atorvastatin 20 mg for Jane Doe. Refill denied: the patient needs an office visit. Signed Dr. Alex Morgan.',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted(fetchMock, '/refills-denied')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Deny refill' }));
    dialog = await screen.findByRole('dialog', { name: 'Send this refill denial?' });
    await userEvent.click(within(dialog).getByLabelText('Don’t ask me again before sending'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send denial' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    const [[, init]] = posted(fetchMock, '/refills-denied') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({
      reason: 'NEED_OFFICE_VISIT',
      senderName: 'Dr. Alex Morgan',
      skipSendConfirmation: true,
    });
  });

  it('sends a faxed decision at once when the user chose not to be shown it first', async () => {
    const fetchMock = stubServer({
      user: userWith({ skipSendConfirmation: true }),
      routes: actionsSucceed,
    });
    renderDetail(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Authorize by fax' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(posted(fetchMock, '/refills-authorized/fax')).toHaveLength(1));
    const [[, init]] = posted(fetchMock, '/refills-authorized/fax') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).not.toHaveProperty('skipSendConfirmation');
  });

  it('sends by eRx at once when the user chose not to be asked', async () => {
    const fetchMock = stubServer({
      user: userWith({ skipErxConfirmation: true }),
      routes: actionsSucceed,
    });
    renderDetail(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Authorize by eRx' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await vi.waitFor(() => expect(posted(fetchMock, '/refills-authorized/erx')).toHaveLength(1));
  });

  it('starts a standing rule for this drug and patient, carried in the navigation state, never the URL (issue 23)', async () => {
    stubServer({});
    const router = renderActionNeeded(`/action-needed/${RX}/refillAuth`, [{ path: '/standing-rules', element: <h1>Rules</h1> }]);
    await userEvent.click(await screen.findByRole('link', { name: /Stop asking: answer this drug’s refill requests/ }));
    await screen.findByRole('heading', { name: 'Rules' });
    expect(router.state.location.pathname).toBe('/standing-rules');
    expect(router.state.location.search).toBe('');
    expect(router.state.location.state).toMatchObject({
      standingRule: { patientName: 'Jane Doe', drugName: 'Atorvastatin', practiceId: null },
    });
  });

  it('checks the postpone date before calling the server', async () => {
    const fetchMock = stubServer();
    renderDetail(`/action-needed/${RX}/refillAuth`);
    const input = await screen.findByLabelText('Ask me again on');
    await userEvent.clear(input);
    await userEvent.type(input, '13/45/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Postpone' }));
    expect(await screen.findByText('Enter a date as MM/DD/YYYY.')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, '01/01/2000');
    await userEvent.click(screen.getByRole('button', { name: 'Postpone' }));
    expect(await screen.findByText('Choose a date after today.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(posted(fetchMock, '/refills-postponed')).toHaveLength(0);
  });

  it('denial reason "Postpone the refill authorization" asks for the date and postpones to it (never a dateless denial)', async () => {
    const fetchMock = stubServer({
      routes: actionsSucceed,
    });
    const router = renderDetail(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByLabelText('Postpone the refill authorization'));
    const deny = screen.getByRole('form', { name: 'Deny' });
    const day = within(deny).getByLabelText('Ask me again on');
    // It starts a week out, as the queue's Postpone dialog does (issue 47); an emptied field is refused.
    const inAWeek = new Date();
    inAWeek.setDate(inAWeek.getDate() + 7);
    expect(day).toHaveValue(
      `${String(inAWeek.getMonth() + 1).padStart(2, '0')}/${String(inAWeek.getDate()).padStart(2, '0')}/${inAWeek.getFullYear()}`,
    );
    await userEvent.clear(day);
    await userEvent.click(within(deny).getByRole('button', { name: 'Postpone refill' }));
    expect(await within(deny).findByText('Enter a date as MM/DD/YYYY.')).toBeInTheDocument();
    const next = new Date();
    next.setDate(next.getDate() + 14);
    const typed = `${String(next.getMonth() + 1).padStart(2, '0')}/${String(next.getDate()).padStart(2, '0')}/${next.getFullYear()}`;
    await userEvent.type(day, typed);
    await userEvent.click(within(deny).getByRole('button', { name: 'Postpone refill' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    expect(posted(fetchMock, '/refills-denied')).toHaveLength(0);
    const [[, init]] = posted(fetchMock, '/refills-postponed') as [[string, RequestInit]];
    const [mm, dd, yyyy] = typed.split('/');
    expect(JSON.parse(String(init.body))).toEqual({
      refillPostponedToDate: `${yyyy}-${mm}-${dd}`,
      senderName: 'Dr. Alex Morgan',
    });
  });

  it('shows the server’s reason when the action fails and reports it under the §8 log name', async () => {
    const reports: [string, Record<string, unknown>][] = [];
    setErrorReporter((name, context) => reports.push([name, context]));
    stubServer({
      routes: (_url, init) =>
        init.method === 'POST'
          ? {
              status: 409,
              body: { error: { code: 'CONFLICT', message: 'This prescription no longer needs a refill authorization.' } },
            }
          : undefined,
    });
    renderDetail(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByLabelText('The patient needs an office visit'));
    await userEvent.click(screen.getByRole('button', { name: 'Deny refill' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send this refill denial?' })).getByRole('button', {
        name: 'Send denial',
      }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This prescription no longer needs a refill authorization.');
    expect(reports[0]?.[0]).toBe('Refill Auth Deny Error');
    expect(reports[0]?.[1].prescriptionId).toBe(RX);
    setErrorReporter(() => {});
  });
});

describe('other requests', () => {
  it('alternative medication: offers the pharmacy’s alternatives and sends the choice', async () => {
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([
        prescription({
          needsRefillAuth: false,
          drugName: 'Januvia',
          substitutionStatus: 'SUBSTITUTION_PENDING_MD_SELECTION_HIGH_COST',
          alternativeMeds: ['Sitagliptin (generic)', 'Tradjenta'],
        }),
      ]),
      routes: actionsSucceed,
    });
    renderDetail(`/action-needed/${RX}/altMed`);
    await userEvent.click(await screen.findByRole('button', { name: 'Send to pharmacy' }));
    expect(await screen.findByText('Choose an alternative, or no substitution.')).toBeInTheDocument();
    await userEvent.click(screen.getByLabelText('Tradjenta'));
    await userEvent.click(screen.getByRole('button', { name: 'Send to pharmacy' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send this choice to the pharmacy?' });
    expect(dialog).toHaveTextContent('dispense Tradjenta instead of');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Send choice' }));
    await vi.waitFor(() => expect(posted(fetchMock, '/substitution/alternative-med')).toHaveLength(1));
    const [[, init]] = posted(fetchMock, '/substitution/alternative-med') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({
      noSubstitute: false,
      selectedAlternativeMed: 'Tradjenta',
      notes: '',
      senderName: 'Dr. Alex Morgan',
    });
  });

  it('prior authorization: the dismiss notice, with “don’t show again”', async () => {
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([
        prescription({ needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_REQUIRED', priorAuthMethod: 'CMM_PA' }),
      ]),
      routes: actionsSucceed,
    });
    renderDetail(`/action-needed/${RX}/priorAuth`);
    expect(await screen.findByText('A prior authorization is required (CoverMyMeds).')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send chart notes' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss prior authorization' }));
    const dialog = screen.getByRole('dialog', { name: 'Dismiss this prior authorization?' });
    await userEvent.click(within(dialog).getByLabelText('Don’t show this again'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await vi.waitFor(() => expect(posted(fetchMock, '/prior-auth/dismiss')).toHaveLength(1));
    const [[, init]] = posted(fetchMock, '/prior-auth/dismiss') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({ prescriptionIds: [RX], skipPriorAuthDismissNotice: true });
  });

  it('a decision answered after the list was refreshed without it still says so and returns to the list', async () => {
    // The order of a live update's refresh and the decision's answer is the network's: here the refresh comes first.
    const pending = actionNeeded([
      prescription({ needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_REQUIRED', priorAuthMethod: 'CMM_PA' }),
    ]);
    let dismissSent = false;
    let refreshed: Promise<Response> | null = null;
    let answerDismiss: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      answerDismiss = resolve;
    });
    const fetchMock = stubServer({ actionNeeded: pending });
    const serve = fetchMock.getMockImplementation() as (url: string, init?: RequestInit) => Promise<Response>;
    fetchMock.mockImplementation(async (url: string, init: RequestInit = {}) => {
      if (url.includes('/prior-auth/dismiss')) {
        dismissSent = true;
        await held;
        return new Response(JSON.stringify({ status: 'OK', prescriptionIds: [RX] }), { status: 200 });
      }
      if (url.includes('/action-needed') && dismissSent) {
        refreshed = Promise.resolve(new Response(JSON.stringify(actionNeeded([])), { status: 200 }));
        return refreshed;
      }
      return serve(url, init);
    });
    const router = renderDetail(`/action-needed/${RX}/priorAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss prior authorization' }));
    const dialog = screen.getByRole('dialog', { name: 'Dismiss this prior authorization?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await vi.waitFor(() => expect(dismissSent).toBe(true));
    // The window regains focus (as a live update would refresh it): the list comes back without the request.
    focusManager.setFocused(false);
    focusManager.setFocused(true);
    await vi.waitFor(() => expect(refreshed).not.toBeNull());
    await refreshed;
    // The query hands its answer to React in the next task (TanStack's notify batching): let that task run.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByText(/no longer needs this action/)).toBeNull();
    expect(screen.getByRole('heading', { level: 1, name: /^Prior authorization: / })).toBeInTheDocument();
    answerDismiss();
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    focusManager.setFocused(undefined);
  });

  it('prior authorization renewal (issue 23): says what to do, and dismissing ends the reminder', async () => {
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([prescription({ needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_RENEWAL_DUE' })]),
      routes: actionsSucceed,
      user: userWith({ skipPriorAuthDismissNotice: true }),
    });
    renderDetail(`/action-needed/${RX}/priorAuth`);
    expect(
      await screen.findByText(
        'The prior authorization expires soon and plans accept its renewal now: start the renewal with the plan, then dismiss this reminder.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Signature sent to the pharmacy' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss prior authorization' }));
    await vi.waitFor(() => expect(posted(fetchMock, '/prior-auth/dismiss')).toHaveLength(1));
  });

  it('phone exception: checks the US phone shape, then sends the corrected number', async () => {
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([prescription({ needsRefillAuth: false, phoneException: true })]),
      routes: actionsSucceed,
    });
    renderDetail(`/action-needed/${RX}/phoneException`);
    const input = await screen.findByLabelText('Correct phone number, as (555) 555-5555');
    await userEvent.type(input, '555-12');
    await userEvent.click(screen.getByRole('button', { name: 'Save phone number' }));
    expect(await screen.findByText('Enter a phone number as (555) 555-5555.')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.type(input, '(614) 555-0199');
    await userEvent.click(screen.getByRole('button', { name: 'Save phone number' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send this phone number to the pharmacy?' })).getByRole('button', {
        name: 'Send number',
      }),
    );
    await vi.waitFor(() => expect(posted(fetchMock, '/resolve-exceptions')).toHaveLength(1));
    const [[, init]] = posted(fetchMock, '/resolve-exceptions') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({
      patientPhoneNumberUpdates: [{ patientId: 'p1', phoneNumber: '(614) 555-0199' }],
    });
  });

  it('appeal: the prescriber opens their own appeal already signed in; others learn who must act and may prepare it', async () => {
    const appealRx = prescription({ id: RX, hcpActionRequired: true, needsRefillAuth: false });
    stubServer({ actionNeeded: actionNeeded([appealRx]), user: userDetails({ details: { mdOfficeId: 'o1', mdStaffId: 'd1' } }) });
    const router = renderDetail(`/action-needed/${RX}/appeals`);
    await userEvent.click(await screen.findByRole('link', { name: 'Open the appeal form' }));
    await vi.waitFor(() =>
      expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/appeals-form?prescription=${RX}`),
    );
    cleanup();

    stubServer({ actionNeeded: actionNeeded([appealRx]), user: userDetails({ details: { mdOfficeId: 'o1', mdStaffId: 's9' } }) });
    const staffRouter = renderDetail(`/action-needed/${RX}/appeals`);
    expect(await screen.findByText(/^Only Alex Morgan attests and submits this appeal/)).toBeInTheDocument();
    // The practice's people prepare it for them (issue 23): the server opens it prepare-only.
    await userEvent.click(screen.getByRole('link', { name: 'Prepare the appeal for Alex Morgan' }));
    await vi.waitFor(() =>
      expect(`${staffRouter.state.location.pathname}${staffRouter.state.location.search}`).toBe(
        `/appeals-form?prescription=${RX}`,
      ),
    );
  });

  it('says so when the prescription no longer needs that action', async () => {
    stubServer();
    renderDetail(`/action-needed/${RX}/altMed`);
    expect(
      await screen.findByText('This prescription no longer needs this action. Someone may have handled it already.'),
    ).toBeInTheDocument();
  });
});

describe('action needed list', () => {
  it('shows the categories with counts and filters the cards', async () => {
    stubServer({
      actionNeeded: actionNeeded([
        prescription(),
        prescription({
          id: '22222222-2222-4222-8222-222222222222',
          needsRefillAuth: false,
          phoneException: true,
          drugName: 'Lisinopril',
        }),
      ]),
    });
    renderDetail('/action-needed');
    const categories = await screen.findByRole('navigation', { name: 'Categories' });
    expect(within(categories).getByText('All')).toHaveAttribute('aria-current', 'page');
    expect(within(categories).getByRole('link', { name: 'Refill authorizations (1)' })).toBeInTheDocument();
    expect(within(categories).getByRole('link', { name: 'Appeals (0)' })).toBeInTheDocument();
    // The cards draw in a transition after the counts (decision 0043).
    expect(await screen.findByRole('link', { name: 'Refill authorization: Atorvastatin for Jane Doe' })).toHaveAttribute(
      'href',
      `/action-needed/${RX}/refillAuth`,
    );
    await userEvent.click(within(categories).getByRole('link', { name: 'Phone exceptions (1)' }));
    expect(await screen.findByRole('link', { name: 'Phone number exception: Lisinopril for Jane Doe' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Atorvastatin/ })).toBeNull();
  });

  it('dismisses every “prior authorization required” at once, after the notice', async () => {
    const second = '55555555-5555-4555-8555-555555555555';
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([
        prescription({ needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_REQUIRED' }),
        prescription({ id: second, needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_REQUIRED', drugName: 'Lisinopril' }),
        prescription({
          id: '66666666-6666-4666-8666-666666666666',
          needsRefillAuth: false,
          priorAuthStatus: 'PRIOR_AUTH_CHART_NOTES_NEEDED',
        }),
      ]),
      routes: (_url, init) =>
        init.method === 'POST' ? { status: 200, body: { status: 'OK', prescriptionIds: [RX, second] } } : undefined,
    });
    renderDetail('/action-needed?category=priorAuth');
    await userEvent.click(await screen.findByRole('button', { name: 'Dismiss all 2 “prior authorization required”' }));
    const dialog = screen.getByRole('dialog', { name: 'Dismiss 2 prior authorization requests?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Dismiss all' }));
    await vi.waitFor(() => expect(posted(fetchMock, '/prior-auth/dismiss')).toHaveLength(1));
    const [[, init]] = posted(fetchMock, '/prior-auth/dismiss') as [[string, RequestInit]];
    expect(JSON.parse(String(init.body))).toEqual({ prescriptionIds: [RX, second] });
  });
});

describe('a prescription that no longer needs the action', () => {
  const GONE = '22222222-2222-4222-8222-222222222222';
  /** Serves the timeline of the prescription GONE (no longer on Action Needed) with these events. */
  const serveEvents = (events: unknown[]) =>
    stubServer({ routes: (url) => (url.includes(`/prescriptions/${GONE}/events`) ? { status: 200, body: events } : undefined) });
  const deniedByMorgan = {
    id: 1,
    type: 'REFILL_DENIED',
    at: '2026-11-24T15:02:00.000Z',
    actorName: 'Dr. Alex Morgan',
    summary: 'Refill denied: office visit needed',
  };
  it('shows its timeline: who answered and how the decision travels to the pharmacy', async () => {
    serveEvents([
      {
        ...deniedByMorgan,
        delivery: {
          status: 'failing',
          sentAt: '2026-11-24T15:02:00.000Z',
          deliveredAt: null,
          nextAttemptAt: '2026-11-24T15:40:00.000Z',
        },
      },
      {
        id: 2,
        type: 'PHARMACY_ACKNOWLEDGED',
        at: '2026-11-24T15:45:00.000Z',
        actorName: null,
        summary: 'Received by the pharmacy',
      },
    ]);
    renderDetail(`/action-needed/${GONE}/refillAuth`);
    expect(
      await screen.findByText('This prescription no longer needs this action. Someone may have handled it already.'),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(/^Sent to the pharmacy \d{1,2}:\d\d [ap]m · delivery failing, next try \d{1,2}:\d\d [ap]m$/),
    ).toBeInTheDocument();
    expect(screen.getByText('Received by the pharmacy')).toBeInTheDocument();
  });

  it('the timeline says when a held decision goes, and that an undone one never went (issue 22)', async () => {
    serveEvents([
      { ...deniedByMorgan, undone: true },
      {
        id: 2,
        type: 'DECISION_UNDONE',
        at: '2026-11-24T15:02:04.000Z',
        actorName: 'Dr. Alex Morgan',
        summary: 'Undone: Refill denied: office visit needed (nothing was sent to the pharmacy)',
      },
      {
        id: 3,
        type: 'REFILL_AUTHORIZED_ERX',
        at: '2026-11-24T15:03:00.000Z',
        actorName: 'Dr. Alex Morgan',
        summary: 'Refill authorized by eRx',
        heldUntil: '2026-11-24T15:03:10.000Z',
      },
    ]);
    renderDetail(`/action-needed/${GONE}/refillAuth`);
    expect(await screen.findByText('Undone: never sent to the pharmacy')).toBeInTheDocument();
    expect(screen.getByText(/^Undone: Refill denied: office visit needed \(nothing was sent/)).toBeInTheDocument();
    expect(screen.getByText(/^Held: goes to the pharmacy at \d{1,2}:\d\d [ap]m unless undone$/)).toBeInTheDocument();
  });

  it('shows no timeline for an id outside the user’s reach (404), and no error either', async () => {
    stubServer({
      routes: (url) =>
        url.includes(`/prescriptions/${GONE}/events`)
          ? { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Prescription not found.' } } }
          : undefined,
    });
    renderDetail(`/action-needed/${GONE}/refillAuth`);
    expect(
      await screen.findByText('This prescription no longer needs this action. Someone may have handled it already.'),
    ).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Loading the timeline…')).toBeNull());
    expect(screen.queryByText('Could not load the timeline.')).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Timeline' })).toBeNull();
  });
});
