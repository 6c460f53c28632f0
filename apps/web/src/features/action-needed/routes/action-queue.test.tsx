/** The one queue on Action Needed (issue 22): the view switch, decision facts, keys, selection and failures. */
import type { ActionQueueItem } from '@hcp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS, saveSession } from '../../../lib/storage.ts';
import { actionNeeded, actionQueue, prescription, queueItem, stubServer, userDetails } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const OUT = '11111111-1111-4111-8111-111111111111';
const SOON = '22222222-2222-4222-8222-222222222222';
const PA = '33333333-3333-4333-8333-333333333333';
const OTHER_PRACTICE = '44444444-4444-4444-8444-444444444444';

/** In the server's order: out of medication, runs out in 3 days, a PA with no fill reported. */
const ITEMS: ActionQueueItem[] = [
  queueItem({
    id: OUT,
    runOutInDays: -2,
    lastFilledOn: '2026-09-21',
    timesRequestedBefore: 2,
    priorDenials: 1,
    priorAuthExpiresOn: '2026-11-10',
  }),
  queueItem({
    id: SOON,
    patient: { id: 'p2', firstName: 'omar', lastName: 'haddad', dob: '1958-02-11' },
    drugName: 'Lisinopril',
    strength: '10 mg',
    runOutInDays: 3,
    priorAuthExpiresOn: '2027-03-31',
    practice: { id: OTHER_PRACTICE, name: 'Lakeside Clinic', prescribeVia: 'eRx' },
  }),
  queueItem({
    id: PA,
    patient: { id: 'p3', firstName: 'ana maria', lastName: 'souza', dob: '1981-07-30' },
    drugName: 'Humira',
    strength: '40 mg',
    needsRefillAuth: false,
    priorAuthStatus: 'PRIOR_AUTH_REQUIRED',
    priorAuthMethod: 'CMM_PA',
    lastFilledOn: null,
    runOutInDays: null,
    refillsRemaining: null,
  }),
];

const USER = 'u';
beforeEach(() => {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: USER });
  window.localStorage.removeItem(STORAGE_KEYS.actionNeededView);
});

type Answer = { status: number; body: unknown };
function serveQueue(
  items = ITEMS,
  status = 200,
  options: { bulk?: (body: Record<string, unknown>) => Answer; staff?: boolean; user?: ReturnType<typeof userDetails> } = {},
) {
  return stubServer({
    ...(options.staff ? { user: userDetails({ mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } }) } : {}),
    ...(options.user ? { user: options.user } : {}),
    routes: (url, init) => {
      if (url.includes('/bulk-actions')) {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        return options.bulk?.(body) ?? { status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong.' } } };
      }
      if (!url.includes('/action-queue')) return undefined;
      if (status !== 200) return { status, body: { error: { code: 'INTERNAL', message: 'Something went wrong.' } } };
      const practice = new URL(url, 'http://x').searchParams.get('practice');
      return { status: 200, body: actionQueue(practice ? items.filter((i) => i.practice.id === practice) : items) };
    },
  });
}

const rowsList = () => screen.findByRole('list', { name: 'Queue, most urgent first' });
const rowTitles = async () =>
  within(await rowsList())
    .getAllByRole('heading', { level: 2 })
    .map((h) => h.textContent);

describe('Action Needed: the queue view', () => {
  it('says why All counts more than the rows: a prescription with two requests is one row (issue 47)', async () => {
    // OUT also needs its prior authorization: 3 rows, 4 requests.
    serveQueue([{ ...(ITEMS[0] as ActionQueueItem), priorAuthStatus: 'PRIOR_AUTH_REQUIRED' }, ...ITEMS.slice(1)]);
    renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    expect(screen.getByRole('link', { name: 'All (4)' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByText('3 in the queue (4 requests: some prescriptions need more than one action)')).toBeDefined();
    await userEvent.click(screen.getByRole('link', { name: /^Prior authorizations/ }));
    expect(await screen.findByText('2 in the queue')).toBeDefined();
  });

  it('switches from the cards, keeps the server’s urgency order, shows the decision facts and is remembered', async () => {
    serveQueue();
    const router = renderActionNeeded('/action-needed');
    await screen.findByRole('list', { name: 'All requests' }); // the cards, loaded
    await userEvent.click(screen.getByRole('button', { name: 'Queue by urgency' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe('?view=queue'));
    expect(screen.getByRole('button', { name: 'Queue by urgency' })).toHaveAttribute('aria-pressed', 'true');
    expect(await rowTitles()).toEqual([
      'Jane Doe · Atorvastatin 20 mg',
      'Omar Haddad · Lisinopril 10 mg',
      'Ana Maria Souza · Humira 40 mg',
    ]);
    const [out, soon, pa] = within(await rowsList()).getAllByRole('listitem');
    const o = within(out as HTMLElement);
    expect(o.getByText('Out of medication')).toBeDefined();
    expect(o.getByText('Refill authorization')).toBeDefined();
    expect(o.getByText('2 times (1 denied)')).toBeDefined();
    expect(o.getByText('0 days')).toBeDefined(); // supply left never below zero
    expect(o.getByText('09/21/2026')).toBeDefined();
    expect(o.getByText('Expired 11/10/2026')).toBeDefined();
    const s = within(soon as HTMLElement);
    expect(s.getByText('Runs out in 3 days')).toBeDefined();
    expect(s.getByText('On file until 03/31/2027')).toBeDefined();
    expect(s.getByText('First request')).toBeDefined();
    expect(s.getByText(/Lakeside Clinic/)).toBeDefined();
    const p = within(pa as HTMLElement);
    expect(p.getByText('Prior authorization', { selector: 'span' })).toBeDefined();
    expect(p.getByText('A prior authorization is required')).toBeDefined();
    expect(p.getAllByText('Not reported')).toHaveLength(3); // last fill, supply left, refills left
    // Counts per category come from the same rule as the cards.
    expect(screen.getByRole('link', { name: 'Refill authorizations (2)' })).toBeDefined();
    expect(document.querySelector('[aria-current="page"]')?.textContent).toBe('All (3)');

    // The choice is remembered for this user: the plain address opens the queue next time.
    router.dispose();
    document.body.innerHTML = '';
    renderActionNeeded('/action-needed');
    expect(await rowTitles()).toHaveLength(3);
  });

  it('narrows by category on the screen and by practice on the server', async () => {
    const fetchMock = serveQueue();
    const router = renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    await userEvent.click(screen.getByRole('link', { name: 'Prior authorizations (1)' }));
    expect(await rowTitles()).toEqual(['Ana Maria Souza · Humira 40 mg']);
    await userEvent.click(screen.getByRole('link', { name: 'All (3)' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Practice' }), 'Lakeside Clinic');
    await vi.waitFor(() => expect(router.state.location.search).toContain(`practice=${OTHER_PRACTICE}`));
    await vi.waitFor(async () => expect(await rowTitles()).toEqual(['Omar Haddad · Lisinopril 10 mg']));
    const asked = fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x'));
    expect(asked.some((u) => u.pathname.endsWith('/action-queue') && u.searchParams.get('practice') === OTHER_PRACTICE)).toBe(
      true,
    );
  });

  it('moves with j/k, selects with x and Shift+click, opens with o, and keeps keys out of the filter box', async () => {
    serveQueue();
    const router = renderActionNeeded('/action-needed?view=queue');
    const list = await rowsList();
    const links = within(list).getAllByRole('link');
    // One row in the Tab order at a time.
    expect(links.map((l) => l.tabIndex)).toEqual([0, -1, -1]);
    await userEvent.keyboard('j');
    expect(document.activeElement).toBe(links[1]);
    expect(links.map((l) => l.tabIndex)).toEqual([-1, 0, -1]);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(links[2]);
    await userEvent.keyboard('j'); // stays on the last
    expect(document.activeElement).toBe(links[2]);
    await userEvent.keyboard('k');
    expect(document.activeElement).toBe(links[1]);

    await userEvent.keyboard('x');
    const boxes = within(list).getAllByRole('checkbox');
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([false, true, false]);
    expect(screen.getByRole('status').textContent).toBe('Omar Haddad selected. 1 of 3 selected.');
    expect(screen.getByText('1 selected')).toBeDefined();
    await userEvent.keyboard('x');
    expect(screen.getByRole('status').textContent).toBe('Omar Haddad cleared. 0 of 3 selected.');
    // Shift+click selects the range from the last box used.
    await userEvent.click(boxes[0] as HTMLElement);
    const user = userEvent.setup(); // keeps Shift held between calls
    await user.keyboard('{Shift>}');
    await user.click(boxes[2] as HTMLElement);
    await user.keyboard('{/Shift}');
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([true, true, true]);
    await userEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
    expect(boxes.map((b) => (b as HTMLInputElement).checked)).toEqual([false, false, false]);

    // "/" goes to the filter box; letters typed there filter and move nothing.
    links[0]?.focus();
    await userEvent.keyboard('/');
    const box = screen.getByRole('searchbox', { name: 'Filter by patient or drug' });
    expect(document.activeElement).toBe(box);
    await userEvent.keyboard('jose souza');
    expect(screen.getByText('No item matches the filter.')).toBeDefined();
    await userEvent.clear(box);
    await userEvent.keyboard('ana humira');
    expect(await rowTitles()).toEqual(['Ana Maria Souza · Humira 40 mg']);
    expect(document.activeElement).toBe(box);
    expect((box as HTMLInputElement).value).toBe('ana humira');
    await userEvent.clear(box);
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(within(await rowsList()).getAllByRole('link')[0]);

    // o opens the active item's request, and Back returns to the queue as it was.
    await userEvent.keyboard('jo');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/action-needed/${SOON}/refillAuth`));
    expect(router.state.location.state).toEqual({ listSearch: '?view=queue' });
  });

  it('selects every refill request with the same sig in one step', async () => {
    serveQueue();
    renderActionNeeded('/action-needed?view=queue');
    const list = await rowsList();
    // The Humira PA has the same sig but is no refill request: it stays out.
    await userEvent.click(screen.getByRole('button', { name: 'Select the 2 refills with this sig' }));
    expect(
      within(list)
        .getAllByRole('checkbox')
        .map((b) => (b as HTMLInputElement).checked),
    ).toEqual([true, true, false]);
    expect(screen.getByRole('status').textContent).toBe('2 refill requests with the same sig selected. 2 of 3 selected.');
  });

  it('Shift+A selects every item shown, again clears them; the button does the same', async () => {
    serveQueue();
    renderActionNeeded('/action-needed?view=queue&category=refillAuth');
    const list = await rowsList();
    await userEvent.keyboard('A');
    expect(
      within(list)
        .getAllByRole('checkbox')
        .map((b) => (b as HTMLInputElement).checked),
    ).toEqual([true, true]);
    expect(screen.getByRole('status').textContent).toBe('All 2 selected.');
    await userEvent.keyboard('A');
    expect(
      within(list)
        .getAllByRole('checkbox')
        .every((b) => !(b as HTMLInputElement).checked),
    ).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Select all 2' }));
    expect(screen.getByText('2 selected')).toBeDefined();
  });

  it('arrow keys scroll the page until focus is in the list; j enters it', async () => {
    serveQueue();
    renderActionNeeded('/action-needed?view=queue');
    const links = within(await rowsList()).getAllByRole('link');
    document.body.focus();
    await userEvent.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(document.body);
    await userEvent.keyboard('j');
    expect(document.activeElement).toBe(links[1]);
  });

  it('lists the keys on ?, and the keys rest while the list is open', async () => {
    serveQueue();
    renderActionNeeded('/action-needed?view=queue');
    const list = await rowsList();
    await userEvent.keyboard('?');
    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    // It starts at its title (focus there), not scrolled down to its Close button (issue 47).
    expect(within(dialog).getByRole('heading', { name: 'Keyboard shortcuts' })).toHaveFocus();
    expect(within(dialog).getByText('Next item')).toBeDefined();
    expect(within(dialog).getByText('Open the item')).toBeDefined();
    await userEvent.keyboard('x');
    expect(
      within(list)
        .getAllByRole('checkbox')
        .every((b) => !(b as HTMLInputElement).checked),
    ).toBe(true);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says the queue could not load (never an empty queue) and tries again', async () => {
    const fetchMock = serveQueue(ITEMS, 500);
    renderActionNeeded('/action-needed?view=queue');
    expect((await screen.findByRole('alert')).textContent).toBe('Could not load the queue. Please try again.');
    expect(screen.queryByText('Nothing needs you right now.')).toBeNull();
    const calls = fetchMock.mock.calls.length;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() => expect(fetchMock.mock.calls.length).toBeGreaterThan(calls));
  });

  it('an empty queue says so', async () => {
    serveQueue([]);
    renderActionNeeded('/action-needed?view=queue');
    expect(await screen.findByText('Nothing needs you right now.')).toBeDefined();
  });
});

const bulkBodies = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls
    .filter(([url]) => String(url).includes('/bulk-actions'))
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);

describe('Action Needed: bulk decisions from the queue', () => {
  it('a authorizes the selection after showing what goes where; the answer lists what was left out and why', async () => {
    const fetchMock = serveQueue(ITEMS, 200, {
      bulk: () => ({
        status: 200,
        body: {
          done: 1,
          refused: 1,
          results: [
            { id: OUT, status: 'done' },
            { id: SOON, status: 'refused', reason: 'It changed since the queue was loaded: open it to see what changed.' },
          ],
        },
      }),
    });
    renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    await userEvent.keyboard('xjxjx'); // all three selected
    const bar = screen.getByRole('group', { name: 'Decide the selected items' });
    expect(
      within(bar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Authorize', 'Deny…', 'Postpone…', 'Dismiss PA notices']);
    await userEvent.keyboard('a');
    const dialog = await screen.findByRole('dialog', { name: 'Authorize 2 refill requests?' });
    expect(within(dialog).getByText(/To the pharmacy, by eRx: 1, by fax: 1/)).toBeDefined();
    // Nothing to fill in: it starts on its confirm button (Enter confirms).
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Authorize and send' }));
    const included = within(dialog).getByRole('list', { name: 'Included' });
    expect(
      within(included)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Jane Doe · Atorvastatin 20 mg — 2 refill(s), “Take one tablet daily”, by fax',
      'Omar Haddad · Lisinopril 10 mg — 2 refill(s), “Take one tablet daily”, by eRx',
    ]);
    expect(
      within(within(dialog).getByRole('list', { name: 'Left out' })).getByText(/Humira 40 mg — not waiting for this/),
    ).toBeDefined();
    // Keys rest while the dialog is open.
    await userEvent.keyboard('d');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Authorize and send' }));
    await vi.waitFor(() => expect(bulkBodies(fetchMock)).toHaveLength(1));
    expect(bulkBodies(fetchMock)[0]).toEqual({
      action: 'refillAuthorize',
      items: [
        { id: OUT, version: 1 },
        { id: SOON, version: 1 },
      ],
      senderName: 'Dr. Alex Morgan',
    });
    const summary = await screen.findByRole('region', { name: '1 done, 1 left out' });
    expect(within(summary).getByText(/Omar Haddad · Lisinopril 10 mg: It changed since the queue was loaded/)).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('Refill authorized for Jane Doe: Atorvastatin 20 mg. 1 left out.');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('leaves out what the practice keeps to another prescriber (covering prescribers), saying why', async () => {
    // Practice o1 keeps each prescriber's requests to them; this prescriber (s1) covers nobody there.
    const user = userDetails({ signing: { ownOrCoveringPracticeIds: ['o1'], covers: [] } });
    serveQueue(ITEMS, 200, { user });
    renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    await userEvent.keyboard('xjxjx');
    await userEvent.keyboard('a');
    const dialog = await screen.findByRole('dialog', { name: 'Authorize 1 refill request?' });
    expect(within(within(dialog).getByRole('list', { name: 'Included' })).getByText(/Omar Haddad/)).toBeDefined();
    expect(
      within(within(dialog).getByRole('list', { name: 'Left out' })).getByText(
        /Jane Doe · Atorvastatin 20 mg — signed by its prescriber or a colleague covering/,
      ),
    ).toBeDefined();
  });

  it('d asks for the reason and p for a day after today before anything is sent; with nothing selected they take the current item', async () => {
    const fetchMock = serveQueue(ITEMS, 200, {
      bulk: (body) => ({
        status: 200,
        body: { done: 1, refused: 0, results: [{ id: (body.items as { id: string }[])[0]?.id, status: 'done' }] },
      }),
    });
    renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    await userEvent.keyboard('d');
    let dialog = await screen.findByRole('dialog', { name: 'Deny 1 refill request?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny and send' }));
    expect(within(dialog).getByText('Choose the reason for the denial.')).toBeDefined();
    expect(bulkBodies(fetchMock)).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('radio', { name: 'The patient needs an office visit' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Deny and send' }));
    await vi.waitFor(() => expect(bulkBodies(fetchMock)).toHaveLength(1));
    expect(bulkBodies(fetchMock)[0]).toMatchObject({ action: 'refillDeny', reason: 'NEED_OFFICE_VISIT', items: [{ id: OUT }] });

    await screen.findByRole('region', { name: '1 done' });
    // The dialog is gone and focus went on to the next item, not to the page's top (issue 47).
    await vi.waitFor(() => expect(document.activeElement?.getAttribute('data-focus-key')).toBe(SOON));
    expect(screen.getByRole('status').textContent).toBe('Refill denied for Jane Doe: Atorvastatin 20 mg.');
    await userEvent.keyboard('p');
    dialog = await screen.findByRole('dialog', { name: 'Postpone 1 refill request?' });
    const day = within(dialog).getByRole('textbox', { name: 'Postpone to' });
    // Starts a week after the server's day, in the field, with focus there; Enter in it confirms (a form).
    expect(day).toHaveValue('11/27/2026');
    expect(day).toHaveFocus();
    await userEvent.clear(day);
    await userEvent.type(day, '11/20/2026{Enter}');
    expect(within(dialog).getByText('Choose a date after today.')).toBeDefined();
    expect(bulkBodies(fetchMock)).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'In 14 days (12/04/2026)' }));
    expect(day).toHaveValue('12/04/2026');
    await userEvent.type(day, '{Enter}');
    await vi.waitFor(() => expect(bulkBodies(fetchMock)).toHaveLength(2));
    expect(bulkBodies(fetchMock)[1]).toMatchObject({ action: 'refillPostpone', postponeTo: '2026-12-04' });
  });

  it('offers staff only what needs no signature, and shows a failed call in the dialog', async () => {
    const fetchMock = serveQueue(ITEMS, 200, { staff: true });
    renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    await userEvent.keyboard('x');
    const bar = screen.getByRole('group', { name: 'Decide the selected items' });
    expect(
      within(bar)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Postpone…']);
    await userEvent.keyboard('a');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('Nothing here can take that decision.');
    await userEvent.keyboard('p');
    const dialog = await screen.findByRole('dialog', { name: 'Postpone 1 refill request?' });
    const day = within(dialog).getByRole('textbox', { name: 'Postpone to' });
    await userEvent.clear(day);
    await userEvent.type(day, '12/04/2026');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Postpone' }));
    await vi.waitFor(() => expect(bulkBodies(fetchMock)).toHaveLength(1));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Something went wrong.');
    expect(screen.queryByRole('region', { name: /done/ })).toBeNull();
  });
});

describe('Action Needed: decision-ready cards', () => {
  it('a card says when the patient runs out, the last fill and the refills left, when the pharmacy reported them', async () => {
    const day = (offset: number) => {
      const d = new Date();
      d.setDate(d.getDate() + offset);
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    };
    stubServer({
      actionNeeded: actionNeeded([
        prescription({ id: OUT, lastFilledOn: day(-28), daysSupply: 30, refillsRemaining: 0 }),
        prescription({ id: SOON, drugName: 'Lisinopril', lastFilledOn: null }),
      ]),
    });
    renderActionNeeded('/action-needed');
    const cards = await screen.findByRole('list', { name: 'All requests' });
    const rxItem = (drug: string) => within(cards).getByText(drug, { selector: 'strong' }).closest('li');
    const [first, second] = [rxItem('Atorvastatin'), rxItem('Lisinopril')];
    expect(first?.textContent).toContain('Runs out in 2 days · Last filled');
    expect(first?.textContent).toContain('Refills left 0');
    expect(second?.textContent).not.toContain('Last filled');
  });
});

describe('Action Needed: keys on the card view', () => {
  it('j/k move between the requests of the cards, o opens one, ? lists the keys', async () => {
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([
        prescription({ id: OUT }),
        prescription({ id: SOON, drugName: 'Lisinopril', priorAuthStatus: 'PRIOR_AUTH_REQUIRED' }),
      ]),
    });
    const router = renderActionNeeded('/action-needed');
    const cards = await screen.findByRole('list', { name: 'All requests' });
    const links = within(cards).getAllByRole('link');
    expect(links).toHaveLength(3);
    await userEvent.keyboard('j');
    expect(document.activeElement).toBe(links[0]);
    await userEvent.keyboard('jj');
    expect(document.activeElement).toBe(links[2]);
    await userEvent.keyboard('{ArrowUp}');
    expect(document.activeElement).toBe(links[1]);
    await userEvent.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(help).getByText('Next request')).toBeDefined();
    await userEvent.click(within(help).getByRole('button', { name: 'Close' }));
    links[1]?.focus();
    await userEvent.keyboard('o');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(links[1]?.getAttribute('href')));
    expect(fetchMock).toHaveBeenCalled();
  });
});
