import type { StandingRule, StandingRulesResponse } from '@hcp/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import StandingRulesRoute from './standing-rules.tsx';

const PRACTICE = '00000000-0000-4000-8000-000000000001';
const DR = '00000000-0000-4000-8000-0000000000a1';
const rule: StandingRule = {
  id: '00000000-0000-4000-8000-0000000000f1',
  name: 'Simvastatin stopped',
  practiceId: PRACTICE,
  practiceName: 'Morgan Family Medicine',
  action: 'discontinued',
  prescriberId: null,
  prescriberName: null,
  patientId: null,
  patientName: null,
  drugName: 'Simvastatin',
  ndc: null,
  note: null,
  enabled: true,
  answeredCount: 14,
  createdByName: 'Dr. Morgan',
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  version: 0,
};
const listOf = (manageable: boolean): StandingRulesResponse => ({
  records: [rule],
  manageable: manageable
    ? [{ practiceId: PRACTICE, practiceName: 'Morgan Family Medicine', prescribers: [{ id: DR, name: 'Alex Morgan' }] }]
    : [],
});
const answered = [
  {
    prescriptionId: 'rx1',
    ruleId: null,
    ruleName: 'Atorvastatin: stop asking',
    patientName: 'Lopez, Ana',
    drugName: 'Atorvastatin 20 mg',
    prescriberName: 'Alex Morgan',
  },
];

type Handler = (url: string, init: RequestInit) => { status: number; body: unknown };
function setup(handler: Handler, state?: unknown) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const { status, body } = handler(url, init);
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter([{ path: '/standing-rules', Component: StandingRulesRoute }], {
    initialEntries: [{ pathname: '/standing-rules', state }],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/standing-rules', () => {
  it('lists the rules with what they answered; staff read them and get no form', async () => {
    setup(() => ({ status: 200, body: listOf(false) }));
    const table = await screen.findByRole('table', { name: 'Standing rules' });
    const row = within(table).getByRole('row', { name: /Simvastatin stopped/ });
    expect(row).toHaveTextContent('Discontinued — do not request refills');
    expect(row).toHaveTextContent('every prescriber of Morgan Family Medicine · Simvastatin');
    expect(row).toHaveTextContent('14 requests');
    expect(screen.queryByRole('button', { name: 'New rule' })).toBeNull();
    expect(screen.getByText('Only a prescriber of the practice can make or change its rules.')).toBeInTheDocument();
  });

  it('says the list failed instead of showing an empty one', async () => {
    setup(() => ({ status: 500, body: { error: { code: 'INTERNAL', message: 'x' } } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the standing rules. Please try again.');
    expect(screen.queryByText('No standing rules yet.')).toBeNull();
  });

  it('previews a rule started from a request, then saves exactly that and says what it answered', async () => {
    const user = userEvent.setup();
    const calls: { url: string; body: unknown }[] = [];
    setup(
      (url, init) => {
        if (init.method === 'POST') calls.push({ url, body: JSON.parse(String(init.body)) });
        if (url.endsWith('/preview')) return { status: 200, body: { items: answered } };
        if (init.method === 'POST')
          return { status: 201, body: { rule: { ...rule, name: 'Atorvastatin: stop asking' }, answered } };
        return { status: 200, body: listOf(true) };
      },
      {
        standingRule: {
          practiceId: PRACTICE,
          prescriberId: DR,
          patientId: '00000000-0000-4000-8000-0000000000c1',
          patientName: 'Lopez, Ana',
          drugName: 'Atorvastatin',
        },
      },
    );
    const form = await screen.findByRole('form', { name: 'New rule' });
    expect(within(form).getByLabelText('Rule name')).toHaveValue('Atorvastatin: stop asking');
    expect(within(form).getByText('Lopez, Ana')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Preview' }));
    expect(await within(form).findByText('Would answer 1 waiting request now:')).toBeInTheDocument();
    expect(within(form).getByRole('list', { name: 'Requests the rule would answer' })).toHaveTextContent(
      'Lopez, Ana · Atorvastatin 20 mg · Alex Morgan',
    );
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await screen.findByText('Rule saved. It answered 1 waiting request.')).toBeInTheDocument();
    const [previewCall, saveCall] = calls;
    expect(previewCall?.url).toBe('/api/mdo/v1/users/u1/standing-rules/preview');
    expect(saveCall?.url).toBe('/api/mdo/v1/users/u1/standing-rules');
    expect((previewCall?.body as { rule: unknown } | undefined)?.rule).toEqual(saveCall?.body);
    expect(saveCall?.body).toMatchObject({
      practiceId: PRACTICE,
      prescriberId: DR,
      patientId: '00000000-0000-4000-8000-0000000000c1',
      drugName: 'Atorvastatin',
      action: 'discontinued',
      enabled: true,
    });
  });

  it('shows the contract’s reason at the drug field before calling, when nothing says what the rule is about', async () => {
    const user = userEvent.setup();
    const fetchMock = setup(() => ({ status: 200, body: listOf(true) }));
    await user.click(await screen.findByRole('button', { name: 'New rule' }));
    const form = screen.getByRole('form', { name: 'New rule' });
    await user.type(within(form).getByLabelText('Rule name'), 'Everything');
    await user.click(within(form).getByRole('button', { name: 'Save rule' }));
    expect(await within(form).findByText(/Name a drug or a patient/)).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1); // the list only
  });
});
