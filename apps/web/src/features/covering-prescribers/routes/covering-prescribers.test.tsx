import { type CoverageResponse, coverageInstantsOf, localTodayIso } from '@hcp/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { saveSession } from '../../../lib/storage.ts';
import { userDetails } from '../../../test/fixtures.ts';
import CoveringPrescribersRoute from './covering-prescribers.tsx';

const PRACTICE = '00000000-0000-4000-8000-000000000001';
const MORGAN = '00000000-0000-4000-8000-0000000000a1';
const SECOND = '00000000-0000-4000-8000-0000000000a2';
const COVERAGE = '00000000-0000-4000-8000-0000000000c1';
const listOf = (mayManage: boolean, policy: 'anyPrescriber' | 'ownOrCovering' = 'ownOrCovering'): CoverageResponse => ({
  practices: [
    {
      practiceId: PRACTICE,
      practiceName: 'Morgan Family Medicine',
      policy,
      mayManage,
      prescribers: [
        { id: MORGAN, name: 'Alex Morgan' },
        { id: SECOND, name: 'Sam Second' },
      ],
      coverages: [
        {
          id: COVERAGE,
          coveringPrescriber: { id: SECOND, name: 'Sam Second' },
          coveredPrescriber: { id: MORGAN, name: 'Alex Morgan' },
          startsAt: new Date(2026, 11, 1).toISOString(),
          endsAt: new Date(2026, 11, 6).toISOString(),
          createdByName: 'Dr. Alex Morgan',
          createdAt: '2026-11-27T10:00:00.000Z',
        },
      ],
    },
  ],
});

type Handler = (url: string, init: RequestInit) => { status: number; body: unknown } | undefined;
function setup(list: CoverageResponse | null, handler: Handler = () => undefined) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const answer =
      handler(url, init) ??
      (url.includes('/mdo-user-details')
        ? { status: 200, body: userDetails({ details: { mdOfficeId: PRACTICE, mdStaffId: MORGAN } }) }
        : list
          ? { status: 200, body: list }
          : { status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong.' } } });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter([{ path: '/covering-prescribers', Component: CoveringPrescribersRoute }], {
    initialEntries: ['/covering-prescribers'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
  return fetchMock;
}
const writes = (fetchMock: ReturnType<typeof setup>) =>
  fetchMock.mock.calls
    .filter(([, init]) => init?.method && init.method !== 'GET')
    .map(([url, init]) => ({ url, method: init?.method, body: init?.body ? JSON.parse(String(init.body)) : null }));

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('/covering-prescribers', () => {
  it('staff read who signs and who covers whom, with no way to change it', async () => {
    setup(listOf(false));
    const table = await screen.findByRole('table', { name: 'Coverages of Morgan Family Medicine' });
    const row = within(table).getByRole('row', { name: /Sam Second/ });
    expect(row).toHaveTextContent('Alex Morgan');
    expect(row).toHaveTextContent('12/01/2026');
    // The coverage ends as 12/06 starts: its last day is 12/05.
    expect(row).toHaveTextContent('12/05/2026');
    expect(
      screen.getByText('Who signs: Each prescriber signs their own requests, or a colleague covering for them.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Only a prescriber of the practice can change who signs.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /End/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Name a covering prescriber' })).toBeNull();
  });

  it('says so when the list cannot be loaded (never an empty list)', async () => {
    setup(null);
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load who signs for whom. Please try again.');
    expect(screen.queryByText('No one is covering for anyone.')).toBeNull();
  });

  it('a prescriber changes who signs', async () => {
    const fetchMock = setup(listOf(true, 'anyPrescriber'), (_url, init) =>
      init.method === 'PUT' ? { status: 200, body: listOf(true).practices[0] } : undefined,
    );
    const save = await screen.findByRole('button', { name: 'Save who signs' });
    expect(save).toBeDisabled();
    await userEvent.click(
      screen.getByRole('radio', { name: 'Each prescriber signs their own requests, or a colleague covering for them' }),
    );
    await userEvent.click(save);
    await vi.waitFor(() => expect(writes(fetchMock)).toHaveLength(1));
    expect(writes(fetchMock)[0]).toEqual({
      url: '/api/mdo/v1/users/u1/coverage/policy',
      method: 'PUT',
      body: { practiceId: PRACTICE, policy: 'ownOrCovering' },
    });
  });

  it('a prescriber names a colleague for whole days; the days are checked before anything is sent', async () => {
    const fetchMock = setup(listOf(true), (_url, init) =>
      init.method === 'POST' ? { status: 201, body: listOf(true).practices[0]?.coverages[0] } : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Name a covering prescriber' }));
    const form = screen.getByRole('form', { name: 'Name a covering prescriber' });
    // Most often it is for the prescriber themselves.
    expect(within(form).getByLabelText('Covers for')).toHaveValue(MORGAN);
    await userEvent.click(within(form).getByRole('button', { name: 'Save coverage' }));
    expect(await within(form).findByText('Choose who covers.')).toBeInTheDocument();
    expect(within(form).getByText('Enter the last day.')).toBeInTheDocument();

    await userEvent.selectOptions(within(form).getByLabelText('Covering prescriber'), SECOND);
    const today = localTodayIso();
    const [y, m, d] = today.split('-').map(Number) as [number, number, number];
    const yesterday = localTodayIso(new Date(y, m - 1, d - 1));
    await userEvent.type(within(form).getByLabelText('Last day'), yesterday);
    await userEvent.click(within(form).getByRole('button', { name: 'Save coverage' }));
    expect(await within(form).findByText('The last day must be on or after the first day.')).toBeInTheDocument();
    expect(writes(fetchMock)).toEqual([]);

    const inFour = localTodayIso(new Date(y, m - 1, d + 4));
    // Typed as people write it (the one day field, issue 47); the call carries the same day.
    const [fy, fm, fd] = inFour.split('-');
    await userEvent.clear(within(form).getByLabelText('Last day'));
    await userEvent.type(within(form).getByLabelText('Last day'), `${fm}/${fd}/${fy}`);
    expect(within(form).getByLabelText('First day')).toHaveValue(`${today.slice(5, 7)}/${today.slice(8)}/${today.slice(0, 4)}`);
    await userEvent.click(within(form).getByRole('button', { name: 'Save coverage' }));
    await vi.waitFor(() => expect(writes(fetchMock)).toHaveLength(1));
    expect(writes(fetchMock)[0]).toEqual({
      url: '/api/mdo/v1/users/u1/coverage',
      method: 'POST',
      body: {
        practiceId: PRACTICE,
        coveringPrescriberId: SECOND,
        coveredPrescriberId: MORGAN,
        ...coverageInstantsOf(today, inFour),
      },
    });
    expect(await screen.findByText('Sam Second covers for Alex Morgan.')).toBeInTheDocument();
  });

  it('shows the server’s reason on its field', async () => {
    setup(listOf(true), (_url, init) =>
      init.method === 'POST'
        ? {
            status: 400,
            body: {
              error: {
                code: 'VALIDATION_FAILED',
                message: 'Choose one of the practice’s prescribers.',
                details: [{ path: 'body.coveringPrescriberId', message: 'Choose one of the practice’s prescribers.' }],
              },
            },
          }
        : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'Name a covering prescriber' }));
    const form = screen.getByRole('form', { name: 'Name a covering prescriber' });
    await userEvent.selectOptions(within(form).getByLabelText('Covering prescriber'), SECOND);
    await userEvent.type(within(form).getByLabelText('Last day'), localTodayIso());
    await userEvent.click(within(form).getByRole('button', { name: 'Save coverage' }));
    expect(await within(form).findByText('Choose one of the practice’s prescribers.')).toBeInTheDocument();
    expect(within(form).getByLabelText('Covering prescriber')).toHaveAttribute('aria-invalid', 'true');
  });

  it('a prescriber ends a coverage', async () => {
    const fetchMock = setup(listOf(true), (_url, init) =>
      init.method === 'DELETE' ? { status: 200, body: { id: COVERAGE, deleted: true } } : undefined,
    );
    await userEvent.click(await screen.findByRole('button', { name: 'End Sam Second’s coverage for Alex Morgan' }));
    await vi.waitFor(() =>
      expect(writes(fetchMock)).toEqual([{ url: `/api/mdo/v1/users/u1/coverage/${COVERAGE}`, method: 'DELETE', body: null }]),
    );
    expect(await screen.findByText('Sam Second no longer covers for Alex Morgan.')).toBeInTheDocument();
  });
});
