/**
 * Prepare-then-sign on the screens (issue 23): staff prepare a refill decision on its page; the prescriber sees it
 * ready to sign there and on the list, and signs one or all as prepared after one confirmation.
 */
import type { PreparedDecision } from '@hcp/contract';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'sonner';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { actionNeeded, actionQueue, prescription, queueItem, stubServer, userDetails } from '../../../test/fixtures.ts';
import { renderActionNeeded } from './test-routes.tsx';

const RX = '11111111-1111-4111-8111-111111111111';
const staff = userDetails({ userName: 'Lee Staff', mdOfficeUser: { userType: 'mdo_user.staff', role: 'STAFF' } });
const prepared: PreparedDecision = {
  decision: { action: 'refillAuthorizedFax', refills: 3, sig: 'Take one tablet at night', note: 'Seen on 11/02' },
  preparedByName: 'Lee Staff',
  preparedAt: '2026-11-27T15:00:00.000Z',
};
const signed = { done: 1, refused: 0, results: [{ id: RX, status: 'done' }] };

const sent = (fetchMock: ReturnType<typeof stubServer>, fragment: string) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url).includes(fragment) && init?.method && init.method !== 'GET')
    .map(([url, init]) => ({ url: String(url), method: init?.method, body: init?.body ? JSON.parse(String(init.body)) : null }));

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

describe('office staff', () => {
  it('prepare a refill authorization for the prescriber and mark it ready; nothing is sent to the pharmacy', async () => {
    const fetchMock = stubServer({
      user: staff,
      routes: (_url, init) =>
        init.method === 'PUT' ? { status: 200, body: { status: 'OK', prescriptionIds: [RX] } } : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    const form = await screen.findByRole('form', { name: 'Prepare for the prescriber’s signature' });
    expect(screen.queryByRole('button', { name: 'Authorize by fax' })).toBeNull();
    await userEvent.click(within(form).getByRole('button', { name: 'Mark ready to sign' }));
    expect(await within(form).findByText('Choose what the prescriber signs.')).toBeInTheDocument();
    await userEvent.click(within(form).getByRole('radio', { name: 'Authorize by fax' }));
    await userEvent.selectOptions(within(form).getByLabelText('Refills'), '3');
    expect(within(form).getByLabelText('Sig (directions)')).toHaveValue('Take one tablet daily');
    await userEvent.type(within(form).getByLabelText('Note for the prescriber (optional)'), 'Seen on 11/02');
    await userEvent.click(within(form).getByRole('button', { name: 'Mark ready to sign' }));
    await vi.waitFor(() => expect(sent(fetchMock, '/prepared-decision')).toHaveLength(1));
    expect(sent(fetchMock, '/prepared-decision')[0]).toEqual({
      url: `/api/mdo/v1/prescriptions/${RX}/prepared-decision`,
      method: 'PUT',
      body: { action: 'refillAuthorizedFax', refills: 3, sig: 'Take one tablet daily', note: 'Seen on 11/02' },
    });
    expect(sent(fetchMock, '/refills-authorized')).toEqual([]);
  });

  it('see what they prepared, cannot sign it, and may withdraw it', async () => {
    const fetchMock = stubServer({
      user: staff,
      actionNeeded: actionNeeded([prescription({ prepared })]),
      routes: (_url, init) =>
        init.method === 'DELETE' ? { status: 200, body: { status: 'OK', prescriptionIds: [RX] } } : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    const box = await screen.findByRole('region', { name: 'Ready to sign' });
    expect(box).toHaveTextContent('Authorize by fax: 3 refill(s), “Take one tablet at night” — prepared by Lee Staff');
    expect(box).toHaveTextContent('Note: Seen on 11/02');
    expect(within(box).queryByRole('button', { name: 'Sign as prepared' })).toBeNull();
    await userEvent.click(within(box).getByRole('button', { name: 'Withdraw' }));
    await vi.waitFor(() =>
      expect(sent(fetchMock, '/prepared-decision')).toEqual([
        { url: `/api/mdo/v1/prescriptions/${RX}/prepared-decision`, method: 'DELETE', body: null },
      ]),
    );
  });
});

describe('the prescriber', () => {
  it('signs one as prepared from its page, after reading what goes', async () => {
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([prescription({ prepared })]),
      routes: (url) => (url.includes('/prepared-decisions/sign') ? { status: 200, body: signed } : undefined),
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    const box = await screen.findByRole('region', { name: 'Ready to sign' });
    await userEvent.click(within(box).getByRole('button', { name: 'Sign as prepared' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign and send as prepared?' });
    expect(dialog).toHaveTextContent('Authorize by fax: 3 refill(s), “Take one tablet at night”. Signed Dr. Alex Morgan.');
    expect(sent(fetchMock, '/prepared-decisions/sign')).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and send' }));
    await vi.waitFor(() => expect(sent(fetchMock, '/prepared-decisions/sign')).toHaveLength(1));
    expect(sent(fetchMock, '/prepared-decisions/sign')[0]?.body).toEqual({ items: [{ id: RX }], senderName: 'Dr. Alex Morgan' });
  });

  it('sees “Ready to sign (N)” on the list and signs all with one confirmation', async () => {
    render(<Toaster />);
    const second = prescription({
      id: '22222222-2222-4222-8222-222222222222',
      drugName: 'Lisinopril',
      prepared: { ...prepared, decision: { action: 'refillDenied', reason: 'NEED_OFFICE_VISIT', note: null } },
    });
    const fetchMock = stubServer({
      actionNeeded: actionNeeded([prescription({ prepared }), second]),
      routes: (url) =>
        url.includes('/prepared-decisions/sign')
          ? {
              status: 200,
              body: {
                done: 1,
                refused: 1,
                results: [
                  { id: RX, status: 'done' },
                  { id: second.id, status: 'refused', reason: 'It changed since it was prepared: open it to see what changed.' },
                ],
              },
            }
          : undefined,
    });
    renderActionNeeded('/action-needed');
    const section = await screen.findByRole('region', { name: 'Ready to sign (2)' });
    await userEvent.click(within(section).getByRole('button', { name: 'Show what was prepared' }));
    expect(within(section).getByRole('list', { name: 'Prepared for signature' })).toHaveTextContent(
      'Deny: the patient needs an office visit — prepared by Lee Staff',
    );
    await userEvent.click(within(section).getByRole('button', { name: 'Sign all 2 as prepared' }));
    const dialog = await screen.findByRole('dialog', { name: 'Sign 2 as prepared?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Sign and send 2' }));
    await vi.waitFor(() => expect(sent(fetchMock, '/prepared-decisions/sign')).toHaveLength(1));
    expect(sent(fetchMock, '/prepared-decisions/sign')[0]?.body).toEqual({
      items: [{ id: RX }, { id: second.id }],
      senderName: 'Dr. Alex Morgan',
    });
    expect(
      await screen.findByText('Signed 1 of 2; 1 left out: It changed since it was prepared: open it to see what changed.'),
    ).toBeInTheDocument();
  });
});

describe('a substitution', () => {
  it('staff prepare the choice; they are not offered to send it themselves', async () => {
    const fetchMock = stubServer({
      user: staff,
      actionNeeded: actionNeeded([
        prescription({
          needsRefillAuth: false,
          substitutionStatus: 'SUBSTITUTION_PENDING_MD_SELECTION_HIGH_COST',
          alternativeMeds: ['Rosuvastatin 10 mg', 'Simvastatin 20 mg'],
        }),
      ]),
      routes: (_url, init) =>
        init.method === 'PUT' ? { status: 200, body: { status: 'OK', prescriptionIds: [RX] } } : undefined,
    });
    renderActionNeeded(`/action-needed/${RX}/altMed`);
    const form = await screen.findByRole('form', { name: 'Prepare for the prescriber’s signature' });
    expect(screen.queryByRole('button', { name: 'Send to pharmacy' })).toBeNull();
    await userEvent.click(within(form).getByRole('radio', { name: 'Simvastatin 20 mg' }));
    await userEvent.click(within(form).getByRole('button', { name: 'Mark ready to sign' }));
    await vi.waitFor(() => expect(sent(fetchMock, '/prepared-decision')).toHaveLength(1));
    expect(sent(fetchMock, '/prepared-decision')[0]?.body).toEqual({
      action: 'alternativeMed',
      noSubstitute: false,
      selectedAlternativeMed: 'Simvastatin 20 mg',
      note: null,
    });
  });
});

describe('the queue view', () => {
  it('also opens with what is ready to sign', async () => {
    stubServer({
      actionNeeded: actionNeeded([prescription({ prepared })]),
      routes: (url) =>
        url.includes('/action-queue') ? { status: 200, body: actionQueue([queueItem({ prepared })]) } : undefined,
    });
    renderActionNeeded('/action-needed?view=queue');
    const section = await screen.findByRole('region', { name: 'Ready to sign (1)' });
    expect(within(section).getByRole('button', { name: 'Sign all 1 as prepared' })).toBeInTheDocument();
    const rows = await screen.findByRole('list', { name: 'Queue, most urgent first' });
    // The row says so too, with what was prepared and the note.
    expect(rows).toHaveTextContent('Ready to sign');
    expect(rows).toHaveTextContent('Authorize by fax: 3 refill(s), “Take one tablet at night” — prepared by Lee Staff');
    expect(rows).toHaveTextContent('Note: Seen on 11/02');
  });
});

describe('a practice where each prescriber signs their own requests (covering prescribers)', () => {
  // The signed-in prescriber (HCP s1) is not the request's prescriber (d1, Alex Morgan) in practice o1.
  const colleague = (covers: { practiceId: string; prescriberId: string; startsAt: string; endsAt: string }[]) =>
    userDetails({ userName: 'Dr. Sam Second', signing: { ownOrCoveringPracticeIds: ['o1'], covers } });
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString();

  it('a colleague who does not cover is offered to prepare it, not to sign it', async () => {
    stubServer({ user: colleague([]), actionNeeded: actionNeeded([prescription({ practiceId: 'o1' })]) });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    expect(
      await screen.findByText(
        'Alex Morgan signs this request, or a colleague covering for them. You can prepare it for their signature.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Prepare for the prescriber’s signature' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Authorize by fax' })).toBeNull();
  });

  const covering = { practiceId: 'o1', prescriberId: 'd1', startsAt: day(-1), endsAt: day(1) };
  it('a colleague covering for the prescriber now signs it', async () => {
    stubServer({ user: colleague([covering]), actionNeeded: actionNeeded([prescription({ practiceId: 'o1' })]) });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByRole('button', { name: 'Authorize by fax' })).toBeInTheDocument();
    expect(screen.queryByText(/signs this request, or a colleague covering/)).toBeNull();
  });

  it('a coverage that has not started yet does not count', async () => {
    stubServer({
      user: colleague([{ ...covering, startsAt: day(1), endsAt: day(3) }]),
      actionNeeded: actionNeeded([prescription({ practiceId: 'o1' })]),
    });
    renderActionNeeded(`/action-needed/${RX}/refillAuth`);
    expect(await screen.findByRole('form', { name: 'Prepare for the prescriber’s signature' })).toBeInTheDocument();
  });

  it('“Ready to sign” counts only what the prescriber may sign and says what waits for others', async () => {
    stubServer({ user: colleague([]), actionNeeded: actionNeeded([prescription({ practiceId: 'o1', prepared })]) });
    renderActionNeeded('/action-needed');
    const section = await screen.findByRole('region', { name: 'Ready to sign (0)' });
    expect(section).toHaveTextContent('1 more wait for the prescriber who signs them, or a colleague covering for them.');
    expect(within(section).queryByRole('button', { name: /Sign all/ })).toBeNull();
  });
});
