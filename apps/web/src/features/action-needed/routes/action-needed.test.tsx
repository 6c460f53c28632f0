import type { ActionNeededResponse } from '@hcp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { actionNeeded, prescription, stubServer } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const MORGAN = '0e7a1c52-0d1f-4c3e-9a51-6f0f7f1c0001';
const LEE = '0e7a1c52-0d1f-4c3e-9a51-6f0f7f1c0002';
const RX_MORGAN = '11111111-1111-4111-8111-111111111111';
const RX_LEE = '22222222-2222-4222-8222-222222222222';
const RX_LEE_PA = '33333333-3333-4333-8333-333333333333';

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));

/** Dr. Morgan has one refill request; Sam Lee, NP, a refill request and a prior authorization. */
function twoPrescribers(): ActionNeededResponse {
  const [morgan] = actionNeeded([prescription({ id: RX_MORGAN })]).doctors;
  const [lee] = actionNeeded([
    prescription({ id: RX_LEE }),
    prescription({ id: RX_LEE_PA, needsRefillAuth: false, priorAuthStatus: 'PRIOR_AUTH_REQUIRED', drugName: 'Lisinopril' }),
  ]).doctors;
  return {
    doctors: [
      { ...(morgan as ActionNeededResponse['doctors'][number]), doctorId: MORGAN },
      { ...(lee as ActionNeededResponse['doctors'][number]), doctorId: LEE, name: 'Sam Lee', role: 'NP' },
    ],
  };
}

/** The server: the whole list, or one prescriber's part of it when asked with filterBy. */
function serve(answer: ActionNeededResponse) {
  return stubServer({
    actionNeeded: answer,
    routes: (url) => {
      if (!url.includes('/action-needed')) return undefined;
      const filterBy = new URL(url, 'http://x').searchParams.get('filterBy');
      return filterBy ? { status: 200, body: { doctors: answer.doctors.filter((d) => d.doctorId === filterBy) } } : undefined;
    },
  });
}

/** The category shown now, with its count ('All (3)'): the current one is text, not a link. */
const currentCategory = () => document.querySelector('nav[aria-label="Categories"] [aria-current="page"]')?.textContent;

const actionNeededCalls = (fetchMock: ReturnType<typeof stubServer>) =>
  fetchMock.mock.calls.map(([url]) => new URL(String(url), 'http://x')).filter((url) => url.pathname.endsWith('/action-needed'));

const renderList = (path = '/action-needed') => renderActionNeeded(path);

describe('Action Needed: one prescriber’s requests (filterBy, spec §7)', () => {
  it('offers the prescribers of the list and asks the server for the chosen one’s requests alone', async () => {
    const fetchMock = serve(twoPrescribers());
    const router = renderList();
    const select = await screen.findByRole('combobox', { name: 'Prescriber' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All prescribers', 'Alex Morgan, MD', 'Sam Lee, NP']);
    expect(currentCategory()).toBe('All (3)');

    await userEvent.selectOptions(select, 'Sam Lee, NP');
    await vi.waitFor(() => expect(router.state.location.search).toBe(`?prescriber=${LEE}`));
    // Counts and cards are that prescriber's alone, from the server's narrowed answer.
    await vi.waitFor(() => expect(currentCategory()).toBe('All (2)'));
    expect(actionNeededCalls(fetchMock).some((url) => url.searchParams.get('filterBy') === LEE)).toBe(true);
    // The cards draw in a transition after the counts (decision 0043).
    await vi.waitFor(() => {
      const cards = screen.getByRole('list', { name: 'All requests' });
      expect(within(cards).getAllByRole('heading', { level: 2 })).toHaveLength(1);
      expect(within(cards).getByText(/Sam Lee, NP/)).toBeDefined();
      expect(within(cards).queryByText(/Alex Morgan/)).toBeNull();
    });

    // A category keeps the prescriber, and the choice can go back to everyone.
    await userEvent.click(screen.getByRole('link', { name: 'Prior authorizations (1)' }));
    await vi.waitFor(() => expect(router.state.location.search).toBe(`?prescriber=${LEE}&category=priorAuth`));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Prescriber' }), 'All prescribers');
    await vi.waitFor(() => expect(router.state.location.search).toBe('?category=priorAuth'));
  });

  it('a request opened from a narrowed list goes back to that list', async () => {
    serve(twoPrescribers());
    const router = renderList(`/action-needed?prescriber=${LEE}&category=refillAuth`);
    await userEvent.click(await screen.findByRole('link', { name: 'Refill authorization: Atorvastatin for Jane Doe' }));
    const back = await screen.findByRole('link', { name: 'Back to Action Needed' });
    expect(back).toHaveAttribute('href', `/action-needed?prescriber=${LEE}&category=refillAuth`);
    await userEvent.click(back);
    await vi.waitFor(() => expect(router.state.location.search).toBe(`?prescriber=${LEE}&category=refillAuth`));
  });

  it('offers no choice when every request is one prescriber’s, and sends no filterBy', async () => {
    const fetchMock = serve(actionNeeded([prescription()]));
    renderList();
    await vi.waitFor(() => expect(currentCategory()).toBe('All (1)'));
    expect(screen.queryByRole('combobox', { name: 'Prescriber' })).toBeNull();
    expect(actionNeededCalls(fetchMock).every((url) => !url.searchParams.has('filterBy'))).toBe(true);
  });
});

describe('Action Needed: a long list draws in steps (issue 21)', () => {
  it('draws the first twenty cards first, then the rest, each step its own commit', async () => {
    const [doctor] = actionNeeded().doctors;
    const patients = Array.from({ length: 45 }, (_, i) => {
      const id = `p${i}`;
      const rxId = `44444444-4444-4444-8444-${String(i).padStart(12, '0')}`;
      return {
        id,
        firstName: `patient${i}`,
        lastName: 'doe',
        dob: '1970-04-05',
        phoneNumbers: ['(614) 555-0101'],
        prescriptions: [{ ...prescription({ id: rxId }), patientID: id }],
      };
    });
    serve({ doctors: [{ ...(doctor as ActionNeededResponse['doctors'][number]), patients }] });
    const counts: number[] = [];
    const observer = new MutationObserver(() => {
      const list = document.querySelector('ul[aria-label="All requests"]');
      const n = list ? list.children.length : 0;
      if (n > 0 && counts.at(-1) !== n) counts.push(n);
    });
    observer.observe(document.body, { childList: true, subtree: true });
    try {
      renderList();
      await vi.waitFor(() => expect(counts.at(-1)).toBe(45));
    } finally {
      observer.disconnect();
    }
    expect(counts).toEqual([20, 40, 45]);
  });
});
