import type { PatientSearchRecord } from '@hcp/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client.ts';
import { saveSession } from '../../../lib/storage.ts';
import { patientDetail, userDetails } from '../../../test/fixtures.ts';
import PatientDetailRoute from './patient-detail.tsx';
import PatientSearchRoute from './patient-search.tsx';

const P1 = '33333333-3333-4333-8333-333333333333';
const record = (i: number): PatientSearchRecord => ({
  id: i === 0 ? P1 : `p${i}`,
  firstName: `jane${i}`,
  lastName: 'doe',
  dob: '1970-04-05',
  phoneNumbers: ['(614) 555-0101'],
  practiceName: 'Morgan Family Medicine',
  actionNeededCount: i === 0 ? 2 : 0,
});

function setup(path: string, answer: (url: URL) => { status: number; body: unknown }) {
  const fetchMock = vi.fn(async (url: string) => {
    const { status, body } = answer(new URL(url, 'http://localhost'));
    return new Response(JSON.stringify(body), { status });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter(
    [
      { path: '/patient-search', Component: PatientSearchRoute },
      { path: '/patients/:patientId', Component: PatientDetailRoute },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={createQueryClient(() => {})}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  /** The calls of the search itself (the user's details are read too, to know what they may see). */
  const searches = () =>
    fetchMock.mock.calls
      .map(([u]) => new URL(String(u), 'http://localhost'))
      .filter((u) => u.pathname.endsWith('/patients-search'));
  return { fetchMock, router, searches };
}

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

describe('/patient-search', () => {
  it('tells the provider’s users outside support access where patients are, instead of an empty search', async () => {
    const admin = userDetails({ role: 'provider.admin', mdOfficeUser: { userType: 'provider_admin', role: null } });
    const { fetchMock } = setup('/patient-search', (url) =>
      url.pathname.endsWith('/mdo-user-details')
        ? { status: 200, body: admin }
        : url.pathname.endsWith('/support-access')
          ? { status: 200, body: { active: null } }
          : { status: 500, body: {} },
    );
    expect(await screen.findByText(/Patient details are shown to each practice’s own people/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Search patients')).toBeNull();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('patients-search'))).toBe(false);
  });

  it('searches on Enter, shows the results with links, pages, and clears with ×', async () => {
    const { searches, router } = setup('/patient-search', (url) => {
      const offset = Number(url.searchParams.get('offset'));
      return {
        status: 200,
        body: { total: 30, records: Array.from({ length: offset === 0 ? 25 : 5 }, (_, i) => record(offset + i)) },
      };
    });
    expect(screen.getByText('Search for a patient of your practices to see their prescriptions.')).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Search patients'), 'doe jane{Enter}');
    const table = await screen.findByRole('table', { name: 'Patients matching “doe jane”' });
    expect(within(table).getByRole('link', { name: 'Doe, Jane0' })).toHaveAttribute('href', `/patients/${P1}`);
    // The search text stays out of the address (history entry state only).
    expect(router.state.location.search).toBe('');
    expect(router.state.location.state).toEqual({ q: 'doe jane' });
    const firstCall = searches()[0] as URL;
    expect(Object.fromEntries(firstCall.searchParams)).toEqual({ searchText: 'doe jane', offset: '0', limit: '25' });
    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    expect(await within(table).findByRole('link', { name: 'Doe, Jane25' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ q: 'doe jane', page: 2 });
    expect(router.state.location.search).toBe('');
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(screen.getByLabelText('Search patients')).toHaveValue('');
    expect(screen.getByLabelText('Search patients')).toHaveFocus();
    expect(router.state.location.search).toBe('');
    expect(router.state.location.state).toEqual({});
  });

  it('asks for two characters and shows the empty state', async () => {
    const { searches } = setup('/patient-search', () => ({ status: 200, body: { total: 0, records: [] } }));
    await userEvent.type(screen.getByLabelText('Search patients'), 'x');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Type at least 2 characters.');
    expect(searches()).toHaveLength(0);
    await userEvent.type(screen.getByLabelText('Search patients'), 'yz{Enter}');
    expect(await screen.findByText('No patients match your search.')).toBeInTheDocument();
  });
});

describe('/patients/{id}', () => {
  it('shows the patient and links each request to its action screen', async () => {
    const detail = patientDetail(P1);
    setup(`/patients/${P1}`, () => ({ status: 200, body: detail }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Jane Doe' })).toBeInTheDocument();
    expect(screen.getByText('1 Main St Columbus, OH 43004')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Refill authorization' })).toHaveAttribute('href', '/action-needed/rx1/refillAuth');
    expect(screen.getByText('Refill postponed to 12/01/2026')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Read and answer the patient’s comments' })).toHaveAttribute(
      'href',
      `/new-comments/${P1}`,
    );
  });

  it('says when the patient is not one of the user’s', async () => {
    setup(`/patients/${P1}`, () => ({ status: 404, body: { error: { code: 'NOT_FOUND', message: 'Patient not found.' } } }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This patient is not one of your practices’ patients.');
  });
});
