/**
 * Deciding in the queue itself (issue 22): chart notes and the alternative under the row (e), the alternative by
 * its number (1-9), and the PA notices that only need dismissing selected in one step. What goes is shown first,
 * the decided row leaves and the next one takes focus.
 */
import type { ActionQueueItem } from '@hcp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS, saveSession } from '../../../lib/storage.ts';
import { actionQueue, queueItem, stubServer, userDetails } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const NOTES = '11111111-1111-4111-8111-111111111111';
const SUB = '22222222-2222-4222-8222-222222222222';
const NOTICE = '33333333-3333-4333-8333-333333333333';
const REFILL = '44444444-4444-4444-8444-444444444444';

const ITEMS: ActionQueueItem[] = [
  queueItem({
    id: NOTES,
    needsRefillAuth: false,
    priorAuthStatus: 'PRIOR_AUTH_CHART_NOTES_NEEDED',
    drugName: 'Ozempic',
    strength: '1 mg',
  }),
  queueItem({
    id: SUB,
    patient: { id: 'p2', firstName: 'omar', lastName: 'haddad', dob: '1958-02-11' },
    needsRefillAuth: false,
    substitutionStatus: 'SUBSTITUTION_PENDING_MD_SELECTION_HIGH_COST',
    drugName: 'Crestor',
    strength: '10 mg',
    alternativeMeds: ['Rosuvastatin 10 mg', 'Atorvastatin 20 mg'],
  }),
  queueItem({
    id: NOTICE,
    patient: { id: 'p3', firstName: 'ana', lastName: 'souza', dob: '1981-07-30' },
    needsRefillAuth: false,
    priorAuthStatus: 'PRIOR_AUTH_REQUIRED',
    drugName: 'Humira',
  }),
  queueItem({ id: REFILL, patient: { id: 'p4', firstName: 'li', lastName: 'wei', dob: '1990-01-01' } }),
];

beforeEach(() => {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' });
  window.localStorage.removeItem(STORAGE_KEYS.actionNeededView);
});

/** A queue that loses each item the server decided, as the real one does. */
function serve(options: { staff?: boolean; failChoice?: boolean } = {}) {
  let open = [...ITEMS];
  const decided = (id: string) => {
    open = open.filter((i) => i.id !== id);
    return { status: 200, body: { status: 'OK', prescriptionIds: [id] } };
  };
  return stubServer({
    ...(options.staff ? { user: userDetails({ mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } }) } : {}),
    routes: (url) => {
      const id = /prescriptions\/([^/]+)\//.exec(url)?.[1] ?? '';
      if (url.includes('/chart-notes-sent')) return decided(id);
      if (url.includes('/alternative-med')) {
        return options.failChoice
          ? {
              status: 409,
              body: {
                error: { code: 'CONFLICT', message: 'This prescription no longer waits for an alternative medication choice.' },
              },
            }
          : decided(id);
      }
      if (url.includes('/action-queue')) return { status: 200, body: actionQueue(open) };
      return undefined;
    },
  });
}
const posts = (fetchMock: ReturnType<typeof stubServer>, part: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).includes(part) && (init as RequestInit | undefined)?.method === 'POST')
    .map(([, init]) => JSON.parse(String((init as RequestInit).body)) as Record<string, unknown>);
const rowsList = () => screen.findByRole('list', { name: 'Queue, most urgent first' });
const titles = async () =>
  within(await rowsList())
    .getAllByRole('heading', { level: 2 })
    .map((h) => h.textContent);

describe('Deciding in the queue', () => {
  it('e opens the chart notes under the row with focus in them; Ctrl+Enter shows what goes, Enter sends, the next row takes focus', async () => {
    const fetchMock = serve();
    renderActionNeeded('/action-needed?view=queue');
    await rowsList();
    await userEvent.keyboard('e');
    const notes = await screen.findByRole('textbox', { name: /Chart notes/ });
    expect(document.activeElement).toBe(notes);
    // Keys are text in the box: j types, it does not move.
    await userEvent.keyboard('E11.9; metformin tried j');
    expect((notes as HTMLTextAreaElement).value).toBe('E11.9; metformin tried j');
    await userEvent.keyboard('{Control>}{Enter}{/Control}');
    const dialog = await screen.findByRole('dialog', { name: 'Send these chart notes?' });
    expect(within(dialog).getByText(/for the prior authorization of Ozempic 1 mg for Jane Doe/)).toBeDefined();
    expect(posts(fetchMock, '/chart-notes-sent')).toHaveLength(0); // nothing goes before the confirmation
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Send chart notes' }));
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(posts(fetchMock, '/chart-notes-sent')).toHaveLength(1));
    expect(posts(fetchMock, '/chart-notes-sent')[0]).toEqual({
      chartNote: 'E11.9; metformin tried j',
      isICD10TriedAndFailed: false,
    });
    await vi.waitFor(async () => expect(await titles()).toHaveLength(3));
    expect(screen.getByRole('status').textContent).toBe('Chart notes sent.');
    // The row that took the decided one's place is current and focused: the next key acts on it.
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Omar Haddad · Crestor 10 mg'));
  });

  it('an empty note is refused on the row, and Escape closes it with focus back on the row', async () => {
    const fetchMock = serve();
    renderActionNeeded('/action-needed?view=queue');
    const list = await rowsList();
    await userEvent.click(within(list).getByRole('button', { name: 'Write chart notes here' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Send chart notes' }));
    expect(await screen.findByText('Enter the chart notes.')).toBeDefined();
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.click(screen.getByRole('textbox', { name: /Chart notes/ }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('textbox', { name: /Chart notes/ })).toBeNull();
    expect(document.activeElement?.textContent).toBe('Jane Doe · Ozempic 1 mg');
    expect(posts(fetchMock, '/chart-notes-sent')).toHaveLength(0);
  });

  it('a number chooses that alternative: the confirmation names it, Enter sends it signed', async () => {
    const fetchMock = serve();
    renderActionNeeded('/action-needed?view=queue&category=altMed');
    const list = await rowsList();
    // The offered alternatives are numbered as the keys choose them.
    expect(within(list).getByText('Alternatives offered').nextElementSibling?.textContent).toBe(
      '1 Rosuvastatin 10 mg, 2 Atorvastatin 20 mg',
    );
    await userEvent.keyboard('3');
    expect(screen.getByRole('status').textContent).toBe('This item offers 2 alternatives.');
    await userEvent.keyboard('2');
    const dialog = await screen.findByRole('dialog', { name: 'Send this choice to the pharmacy?' });
    expect(within(dialog).getByText(/dispense Atorvastatin 20 mg instead of Crestor 10 mg/)).toBeDefined();
    await userEvent.keyboard('{Enter}');
    await vi.waitFor(() => expect(posts(fetchMock, '/alternative-med')).toHaveLength(1));
    expect(posts(fetchMock, '/alternative-med')[0]).toMatchObject({
      noSubstitute: false,
      selectedAlternativeMed: 'Atorvastatin 20 mg',
      senderName: 'Dr. Alex Morgan',
    });
    expect(await screen.findByText('No alternative medications need you right now.')).toBeDefined();
  });

  it('a failed choice is shown, never taken for done', async () => {
    serve({ failChoice: true });
    renderActionNeeded('/action-needed?view=queue&category=altMed');
    await rowsList();
    await userEvent.keyboard('1');
    await userEvent.keyboard('{Enter}');
    expect(await screen.findByText('This prescription no longer waits for an alternative medication choice.')).toBeDefined();
    expect(await titles()).toEqual(['Omar Haddad · Crestor 10 mg']);
  });

  it('e under a substitution offers the same form as its page, with no substitution and notes', async () => {
    const fetchMock = serve();
    renderActionNeeded('/action-needed?view=queue&category=altMed');
    await rowsList();
    await userEvent.keyboard('e');
    const group = await screen.findByRole('group', { name: 'Dispense instead' });
    await userEvent.click(within(group).getByRole('radio', { name: 'No substitution: dispense as prescribed' }));
    // Keys on the form's radios stay the form's: 1 chooses nothing behind it, j moves nothing.
    await userEvent.keyboard('1j');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(group).getByRole('radio', { name: 'No substitution: dispense as prescribed' })).toBeChecked();
    await userEvent.type(screen.getByRole('textbox', { name: 'Notes to the pharmacy (optional)' }), 'Covered since Nov 1');
    await userEvent.click(screen.getByRole('button', { name: 'Send to pharmacy' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Send this choice to the pharmacy?' })).getByRole('button', {
        name: 'Send choice',
      }),
    );
    await vi.waitFor(() => expect(posts(fetchMock, '/alternative-med')).toHaveLength(1));
    expect(posts(fetchMock, '/alternative-med')[0]).toMatchObject({
      noSubstitute: true,
      selectedAlternativeMed: null,
      notes: 'Covered since Nov 1',
    });
  });

  it('office staff write chart notes here but are not offered the prescriber’s choice', async () => {
    const fetchMock = serve({ staff: true });
    renderActionNeeded('/action-needed?view=queue');
    const list = await rowsList();
    expect(within(list).getByRole('button', { name: 'Write chart notes here' })).toBeDefined();
    expect(within(list).queryByRole('button', { name: 'Choose the alternative here' })).toBeNull();
    await userEvent.keyboard('j1');
    expect(screen.getByRole('status').textContent).toBe(
      'Only a prescriber of the practice can do this. Ask a prescriber to sign it.',
    );
    await userEvent.keyboard('e');
    expect(screen.getByRole('status').textContent).toBe('Nothing to decide here for this item: open it (o) to see its page.');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posts(fetchMock, '/alternative-med')).toHaveLength(0);
  });

  it('selects the PA notices that only need dismissing, and leaves the ones waiting for chart notes', async () => {
    serve();
    renderActionNeeded('/action-needed?view=queue&category=priorAuth');
    const list = await rowsList();
    await userEvent.click(screen.getByRole('button', { name: 'Select the 1 PA notice that only needs dismissing' }));
    expect(
      within(list)
        .getAllByRole('checkbox')
        .map((b) => (b as HTMLInputElement).checked),
    ).toEqual([false, true]);
    expect(screen.getByRole('status').textContent).toBe('1 PA notice selected. 1 of 2 selected.');
    expect(screen.queryByRole('button', { name: /only needs? dismissing/ })).toBeNull();
    expect(
      within(screen.getByRole('group', { name: 'Decide the selected items' })).getByRole('button', {
        name: 'Dismiss PA notices',
      }),
    ).toBeDefined();
  });
});
