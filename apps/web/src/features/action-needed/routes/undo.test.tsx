/** Undo (issue 22): every decision's toast carries Undo while the server holds it, and `u` undoes the newest. */
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster, toast } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS, saveSession } from '../../../lib/storage.ts';
import { actionNeeded, actionQueue, prescription, queueItem, stubServer } from '../../../test/fixtures.ts';
import { forgetDecision } from '../utils/use-decision-toast.ts';
import { renderActionNeeded } from './test-routes.tsx';

const RX = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const REQUEST = 'UndoRequest0000000000001';
const offer = (ms = 10_000) => ({ requestId: REQUEST, until: new Date(Date.now() + ms).toISOString() });

beforeEach(() => {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' });
  window.localStorage.removeItem(STORAGE_KEYS.actionNeededView);
  forgetDecision();
  // jsdom has no pointer capture; the toast's swipe-to-close asks for it.
  HTMLElement.prototype.setPointerCapture ??= () => undefined;
  render(<Toaster />);
});
afterEach(() => {
  forgetDecision();
  toast.dismiss();
});

type Answer = { status: number; body: unknown };
function serve(options: { undo?: () => Answer; bulkOffer?: boolean } = {}) {
  return stubServer({
    actionNeeded: actionNeeded([prescription({ id: RX })]),
    routes: (url) => {
      if (url.includes('/undo')) return options.undo?.() ?? { status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } };
      if (url.includes('/bulk-actions')) {
        return {
          status: 200,
          body: {
            done: 2,
            refused: 0,
            results: [
              { id: RX, status: 'done' },
              { id: OTHER, status: 'done' },
            ],
            ...(options.bulkOffer === false ? {} : { undo: offer() }),
          },
        };
      }
      if (url.includes('/refills-authorized/fax')) {
        return { status: 200, body: { status: 'OK', prescriptionIds: [RX], undo: offer() } };
      }
      if (url.includes('/action-queue')) {
        return { status: 200, body: actionQueue([queueItem({ id: RX }), queueItem({ id: OTHER, drugName: 'Lisinopril' })]) };
      }
      return undefined;
    },
  });
}
const calls = (fetchMock: ReturnType<typeof stubServer>, part: string) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes(part));

async function authorizeAllFromQueue() {
  renderActionNeeded('/action-needed?view=queue');
  await screen.findByRole('list', { name: 'Queue, most urgent first' });
  await userEvent.keyboard('xjx');
  await userEvent.keyboard('a');
  const dialog = await screen.findByRole('dialog', { name: 'Authorize 2 refill requests?' });
  await userEvent.click(within(dialog).getByRole('button', { name: 'Authorize and send' }));
  return screen.findByText('Refills authorized for 2 items.', { selector: '[data-title]' });
}

describe('Undo', () => {
  it('u undoes the newest decision of the queue, says so and refreshes the queue', async () => {
    const fetchMock = serve({
      undo: () => ({
        status: 200,
        body: {
          undone: 2,
          refused: 0,
          results: [
            { id: OTHER, status: 'undone' },
            { id: RX, status: 'undone' },
          ],
        },
      }),
    });
    await authorizeAllFromQueue();
    expect(screen.getByText(/Goes to the pharmacy in 1\d? s unless you undo it/)).toBeDefined();
    const loads = calls(fetchMock, '/action-queue').length;
    await userEvent.keyboard('u');
    await vi.waitFor(() => expect(calls(fetchMock, `/decisions/${REQUEST}/undo`)).toHaveLength(1));
    expect((calls(fetchMock, '/undo')[0] as [string, RequestInit])[1].method).toBe('POST');
    expect(await screen.findByText('Undone: 2 items are back. Nothing was sent to the pharmacy.')).toBeDefined();
    await vi.waitFor(() => expect(calls(fetchMock, '/action-queue').length).toBeGreaterThan(loads));
    // Focus is on the first item that came back, where the next key acts (issue 47).
    await vi.waitFor(() => expect(document.activeElement?.getAttribute('data-focus-key')).toBe(OTHER));
    // Spent: a second u has nothing left to undo and calls nobody.
    await userEvent.keyboard('u');
    expect(await screen.findByText(/Nothing to undo/)).toBeDefined();
    expect(calls(fetchMock, '/undo')).toHaveLength(1);
  });

  it('the toast’s Undo button does the same, and a refusal is shown with the server’s reason', async () => {
    const fetchMock = serve({
      undo: () => ({
        status: 409,
        body: { error: { code: 'CONFLICT', message: 'Too late to undo: the pharmacy has been told.', details: [] } },
      }),
    });
    await authorizeAllFromQueue();
    await userEvent.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await screen.findByText('Too late to undo: the pharmacy has been told.')).toBeDefined();
    expect(calls(fetchMock, '/undo')).toHaveLength(1);
  });

  it('without an offer (a server with no undo window) the toast has no Undo and u undoes nothing', async () => {
    const fetchMock = serve({ bulkOffer: false });
    await authorizeAllFromQueue();
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
    await userEvent.keyboard('u');
    expect(await screen.findByText(/Nothing to undo/)).toBeDefined();
    expect(calls(fetchMock, '/undo')).toHaveLength(0);
  });

  it('a decision on the detail page can be undone from the card view it returns to', async () => {
    const fetchMock = serve({ undo: () => ({ status: 200, body: { undone: 1, refused: 0, results: [] } }) });
    const router = renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    await userEvent.click(await screen.findByRole('button', { name: 'Authorize by fax' }));
    const confirm = await screen.findByRole('dialog', { name: 'Send this refill authorization by fax?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Send by fax' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/action-needed'));
    // Whose which drug, as the page showed them: the list it lands on no longer shows the item (issue 47).
    expect(await screen.findByText(/^Refill authorized by fax\. \w+ \w+: .+\.$/)).toBeDefined();
    await screen.findByRole('list', { name: 'All requests' });
    await userEvent.keyboard('u');
    expect(await screen.findByText('Undone. Nothing was sent to the pharmacy.')).toBeDefined();
    expect(calls(fetchMock, `/decisions/${REQUEST}/undo`)).toHaveLength(1);
  });
});
