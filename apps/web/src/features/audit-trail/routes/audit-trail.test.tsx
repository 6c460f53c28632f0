/**
 * Issue 49, the Audit Trail page: a patient found by name (the text sent in the body, never the URL) and their access
 * report with its paths and an export; a failed report said as such; unusual access explained by the contract's
 * rules and cleared with a note (a refusal shows the server's sentence); the seals checked; one's own support window
 * left to another officer.
 */
import { type AuditEntry, type ChainReport, UNUSUAL_ACCESS_RULES } from '@hcp/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrandProvider } from '../../../lib/brand/brand.tsx';
import { saveSession } from '../../../lib/storage.ts';
import AuditTrailRoute from './audit-trail.tsx';

const SELF = '00000000-0000-4000-8000-0000000000a1';
const STAFF = '00000000-0000-4000-8000-0000000000b1';
const PATIENT = '00000000-0000-4000-8000-0000000000c1';

const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: '1',
  at: '2026-12-02T15:00:00.000Z',
  actor: { userId: STAFF, name: 'Lee Staff', role: 'Staff', practice: 'Morgan Family Medicine' },
  action: 'patients.read',
  description: "Opened the patient's record",
  outcome: 'success',
  channel: 'portal',
  ip: '10.0.0.1',
  requestId: 'r1',
  ...over,
});

type Answer = { status: number; body: unknown; raw?: string };
const ok = (body: unknown): Answer => ({ status: 200, body });

const MAIN = { key: 'main', name: 'HCP Portal', title: 'HCP Portal', colour: '#0b5cab' };

/** With `reportTimeZone`, the page sits in the app's brand provider and the tenant answer names that zone. */
function setup(route: (path: string, method: string, body: unknown) => Answer, view = 'patient', reportTimeZone?: string) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: SELF });
  const fetchMock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const path = new URL(url, 'http://localhost').pathname;
    const answer = path.endsWith('/tenant')
      ? ok({ tenant: MAIN, forced: false, brands: [MAIN], reportTimeZone })
      : route(path, init.method ?? 'GET', init.body ? JSON.parse(String(init.body)) : null);
    return new Response(answer.raw ?? JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': answer.raw ? 'text/csv' : 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  const router = createMemoryRouter([{ path: '/audit-trail', Component: AuditTrailRoute }], {
    initialEntries: [`/audit-trail?view=${view}`],
  });
  const page = <RouterProvider router={router} />;
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {reportTimeZone ? <BrandProvider>{page}</BrandProvider> : page}
    </QueryClientProvider>,
  );
  return fetchMock;
}
const failure = (status: number, message: string): Answer => ({
  status,
  body: { error: { code: status === 409 ? 'CONFLICT' : 'INTERNAL', message } },
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const report = {
  patient: { id: PATIENT, name: 'Pat Doe', dob: '1960-04-05', practice: 'Morgan Family Medicine' },
  records: [
    entry({ id: '2', channel: 'support', actor: { userId: 'x', name: 'Sam Support', role: 'Provider admin', practice: null } }),
    entry({ id: '1', action: 'prescription.refillDenied.refused', description: 'Refused: Denied a refill', outcome: 'refused' }),
  ],
  total: 2,
  page: 1,
  pageSize: 50,
};

describe('/audit-trail', () => {
  it('finds a patient by name in the request body and shows who read their records, by path, then exports', async () => {
    const fetchMock = setup((path, method) => {
      if (path.endsWith('/patient-search') && method === 'POST') return ok({ records: [report.patient] });
      if (path.endsWith('/patient-access')) return ok(report);
      if (path.endsWith('/patient-access/export')) return { status: 200, body: null, raw: 'When (UTC),Who\r\n' };
      return failure(500, 'unexpected');
    });
    const createObjectURL = vi.fn(() => 'blob:x');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    await userEvent.type(screen.getByLabelText('Find a patient'), 'Doe');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await userEvent.click(await screen.findByRole('button', { name: /Pat Doe, born 04\/05\/1960/ }));
    const table = await screen.findByRole('table', { name: "Access to Pat Doe's records" });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]).toHaveTextContent('Sam Support');
    expect(rows[1]).toHaveTextContent('Support window');
    expect(rows[2]).toHaveTextContent('Refused: Denied a refill');
    expect(rows[2]).toHaveTextContent('Portal');
    expect(screen.getByText('2 entries')).toBeInTheDocument();
    // The name typed went in the body of a POST, never into a URL.
    for (const [url] of fetchMock.mock.calls) expect(String(url)).not.toContain('Doe');
    await userEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await vi.waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const exportUrl = fetchMock.mock.calls.map(([url]) => String(url)).find((url) => url.includes('/export'));
    expect(exportUrl).toContain(`patientId=${PATIENT}`);
    expect(exportUrl).toContain('format=csv');
  });

  it('says so when the report cannot be loaded, never an empty table', async () => {
    setup((path) => {
      if (path.endsWith('/patient-search')) return ok({ records: [report.patient] });
      return failure(500, 'Something went wrong.');
    });
    await userEvent.type(screen.getByLabelText('Find a patient'), 'Doe');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await userEvent.click(await screen.findByRole('button', { name: /Pat Doe/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Could not load the report. Please try again.');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('explains the unusual-access rules and clears a finding with a note; a second review shows why it was refused', async () => {
    let reviews = 0;
    const fetchMock = setup((path, method) => {
      if (path.endsWith('/unusual-access')) {
        return ok({
          records: [
            {
              key: `afterHours:${STAFF}:2026-11-21`,
              rule: 'afterHours',
              user: { id: STAFF, name: 'Lee Staff', practice: 'Morgan Family Medicine' },
              from: '2026-11-22T04:30:00.000Z',
              to: '2026-11-22T04:30:00.000Z',
              reads: 1,
              patient: null,
              patients: 1,
              review: null,
            },
          ],
          totals: { noOpenWork: 0, manyPatients: 0, afterHours: 1 },
          perRule: 200,
        });
      }
      if (path.endsWith('/findings/review') && method === 'POST') {
        reviews += 1;
        return reviews === 1
          ? ok({ status: 'ok' })
          : failure(409, 'Someone has already reviewed this. Reload to see their note.');
      }
      return failure(500, 'unexpected');
    }, 'unusual');
    expect(screen.getByText(UNUSUAL_ACCESS_RULES.afterHours.explanation)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Findings' });
    await userEvent.click(within(table).getByRole('button', { name: 'Clear' }));
    await userEvent.click(within(table).getByRole('button', { name: 'Save review' }));
    expect(within(table).getByRole('alert')).toHaveTextContent('Write what you checked (at least 3 characters).');
    await userEvent.type(within(table).getByLabelText('Note'), 'On call that night.');
    await userEvent.click(within(table).getByRole('button', { name: 'Save review' }));
    await vi.waitFor(() => expect(reviews).toBe(1));
    const posted = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/findings/review'));
    expect(JSON.parse(String(posted?.[1]?.body))).toEqual({ key: `afterHours:${STAFF}:2026-11-21`, note: 'On call that night.' });
    await userEvent.click(await within(table).findByRole('button', { name: 'Clear' }));
    await userEvent.type(within(table).getByLabelText('Note'), 'Twice.');
    await userEvent.click(within(table).getByRole('button', { name: 'Save review' }));
    expect(await within(table).findByRole('alert')).toHaveTextContent('Someone has already reviewed this.');
  });

  it('checks the seals and names the first changed row', async () => {
    const broken: ChainReport = {
      ok: false,
      seals: 4,
      sealedRows: 120,
      lastSealedRowId: 120,
      lastSealedAt: '2026-12-03T10:00:00.000Z',
      unsealedRows: 0,
      purgedRows: 0,
      problem: { kind: 'changed', rowId: 42, sealId: 2 },
      checkedAt: '2026-12-03T10:05:00.000Z',
    };
    setup((path) => {
      if (path.endsWith('/verify')) return ok(broken);
      if (path.endsWith('/privacy-officers')) return ok({ records: [] });
      return failure(500, 'unexpected');
    }, 'integrity');
    await userEvent.click(screen.getByRole('button', { name: 'Check the trail' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('row 42 was changed after it was sealed');
  });

  it("leaves one's own support window to another privacy officer", async () => {
    setup((path) => {
      if (path.endsWith('/support-windows')) {
        return ok({
          records: [
            {
              id: 'w1',
              user: { id: SELF, name: 'Avery Admin' },
              practice: 'Morgan Family Medicine',
              reason: 'Helping with a refill.',
              startedAt: '2026-12-01T10:00:00.000Z',
              endedAt: '2026-12-01T10:30:00.000Z',
              minutes: 30,
              reads: 3,
              patients: 2,
              review: null,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 50,
        });
      }
      return failure(500, 'unexpected');
    }, 'support');
    const table = await screen.findByRole('table', { name: 'Support windows' });
    expect(within(table).getByRole('row', { name: /Helping with a refill/ })).toHaveTextContent(
      'Another privacy officer reviews this.',
    );
    expect(within(table).queryByRole('button', { name: 'Mark reviewed' })).toBeNull();
  });

  it("opens what a support window's person read: the user activity report on its days", async () => {
    const asked: string[] = [];
    setup((path, _method) => {
      if (path.endsWith('/support-windows')) {
        return ok({
          records: [
            {
              id: 'w2',
              user: { id: STAFF, name: 'Sam Support' },
              practice: 'Morgan Family Medicine',
              reason: 'Looking for a fax.',
              startedAt: '2026-12-01T15:00:00.000Z',
              endedAt: '2026-12-01T15:30:00.000Z',
              minutes: 30,
              reads: 2,
              patients: 1,
              review: null,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 50,
        });
      }
      if (path.endsWith('/user-activity')) {
        return ok({
          user: { id: STAFF, name: 'Sam Support', email: 'sam@demo.hcp', role: 'provider.admin', practice: null },
          records: [entry({ patients: [{ id: PATIENT, name: 'Pat Doe' }] })],
          total: 1,
          page: 1,
          pageSize: 50,
        });
      }
      return failure(500, 'unexpected');
    }, 'support');
    const fetchMock = vi.mocked(fetch);
    await userEvent.click(await screen.findByRole('link', { name: 'What Sam Support read' }));
    const table = await screen.findByRole('table', { name: 'Activity of Sam Support' });
    expect(within(table).getByRole('row', { name: /Pat Doe/ })).toBeInTheDocument();
    asked.push(...fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/user-activity')));
    expect(asked[0]).toContain(`userId=${STAFF}`);
    expect(asked[0]).toMatch(/from=2026-12-0[12]&to=2026-12-0[12]/);
  });

  it("counts its days in the reports' zone the server names: the last 30 of New York's, and a window's day there", async () => {
    // 03:00 UTC on 5 December is 22:00 on 4 December in New York; the window began at 21:00 there on the 4th.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T03:00:00Z'));
    const windowOn4th = {
      id: 'w3',
      user: { id: STAFF, name: 'Sam Support' },
      practice: 'Morgan Family Medicine',
      reason: 'Late call.',
      startedAt: '2026-12-05T02:00:00.000Z',
      endedAt: '2026-12-05T02:20:00.000Z',
      minutes: 20,
      reads: 1,
      patients: 1,
      review: null,
    };
    const fetchMock = setup(
      (path) =>
        path.endsWith('/support-windows') ? ok({ records: [windowOn4th], total: 1, page: 1, pageSize: 50 }) : failure(500, 'x'),
      'support',
      'America/New_York',
    );
    expect(await screen.findByText('Days run midnight to midnight, America/New York time.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'To' })).toHaveValue('12/04/2026');
    expect(screen.getByRole('textbox', { name: 'From' })).toHaveValue('11/05/2026');
    expect(await screen.findByRole('link', { name: 'What Sam Support read' })).toHaveAttribute(
      'href',
      `/audit-trail?view=user&userId=${STAFF}&from=2026-12-04&to=2026-12-04`,
    );
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/support-windows'));
    expect(asked.at(-1)).toMatch(/from=2026-11-05&to=2026-12-04/);
  });

  it('folds a list read past three patients under "and N more", which opens to the rest', async () => {
    const names = ['Ann Able', 'Bo Baker', null, 'Di Dunn', 'Ed East'];
    setup((path) => {
      if (path.endsWith('/user-activity')) {
        return ok({
          user: { id: STAFF, name: 'Lee Staff', email: 'lee@demo.hcp', role: 'Staff', practice: 'Morgan Family Medicine' },
          records: [
            entry({
              action: 'action-needed.read',
              description: 'Read the Action Needed list',
              patients: names.map((name, i) => ({ id: `${PATIENT.slice(0, -1)}${i}`, name })),
            }),
          ],
          total: 1,
          page: 1,
          pageSize: 50,
        });
      }
      return failure(500, 'unexpected');
    }, `user&userId=${STAFF}`);
    const table = await screen.findByRole('table', { name: 'Activity of Lee Staff' });
    const row = within(table).getByRole('row', { name: /Read the Action Needed list/ });
    expect(row).toHaveTextContent('Ann Able, Bo Baker, Not shown');
    const more = within(row).getByText('and 2 more');
    expect(within(row).getByText('Di Dunn, Ed East')).not.toBeVisible();
    await userEvent.click(more);
    expect(within(row).getByText('Di Dunn, Ed East')).toBeVisible();
  });
});
