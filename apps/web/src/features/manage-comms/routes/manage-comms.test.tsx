import type { MdOffice, MdOfficeListRecord } from '@hcp/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../lib/query-client.ts';
import { saveSession } from '../../../lib/storage.ts';
import { stubServer, userDetails } from '../../../test/fixtures.ts';
import ManageCommsRoute from './manage-comms.tsx';

const OFFICE_ID = '44444444-4444-4444-8444-444444444444';
const record = (i: number): MdOfficeListRecord => ({
  id: i === 0 ? OFFICE_ID : `o${i}`,
  name: `Practice ${String(i).padStart(2, '0')}`,
  city: 'Columbus',
  state: 'OH',
  phoneNumber: '(614) 555-0100',
  email: `p${i}@example.com`,
  isKeyAccount: i % 2 === 0,
  mdOfficePrefs: { notOnboarded: false },
});
const office: MdOffice = {
  id: OFFICE_ID,
  name: 'Practice 00',
  address1: '1 Main St',
  address2: null,
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  phoneNumber: '(614) 555-0100',
  faxNumber: null,
  email: null,
  isKeyAccount: false,
  salesUserId: null,
  mdOfficePrefs: {
    communicationMode: 'email',
    paHandling: 'PAViaMDDash',
    refillRequestOption: 'eRx',
    notOnboarded: false,
    prescribeVia: 'eRx',
    prescribingEnabled: false,
    harrowPortalAccess: false,
  },
  canEdit: true,
};

type Answer = { status: number; body: unknown } | undefined;
function setup(path: string, routes: (url: URL, init: RequestInit) => Answer, user = userDetails({ role: 'provider.admin' })) {
  const fetchMock = stubServer({
    user,
    routes: (url, init) => routes(new URL(url, 'http://localhost'), init),
  });
  const router = createMemoryRouter([{ path: '/manage-comms/*', Component: ManageCommsRoute }], { initialEntries: [path] });
  render(
    <QueryClientProvider client={createQueryClient(() => {})}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { fetchMock, router };
}

const searchAnswer = (url: URL): Answer => {
  if (!url.pathname.endsWith('/md-offices-search')) return undefined;
  const text = url.searchParams.get('searchText') ?? '';
  const offset = Number(url.searchParams.get('offset'));
  const all = Array.from({ length: 30 }, (_, i) => record(i)).filter((r) => r.name.toLowerCase().includes(text.toLowerCase()));
  return { status: 200, body: { total: all.length, records: all.slice(offset, offset + 25) } };
};

beforeEach(() => saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u' }));
afterEach(() => vi.unstubAllGlobals());

describe('/manage-comms', () => {
  it('keeps an office user out, points them to Practice Preferences, and fetches no practices', async () => {
    const { fetchMock } = setup('/manage-comms/practices', searchAnswer, userDetails());
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Manage Communications is for the provider’s administrators and sales team.');
    expect(within(alert).getByRole('link', { name: 'Practice Preferences' })).toHaveAttribute('href', '/practice-preferences');
    expect(screen.queryByText('Failed to fetch MD offices')).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/md-offices'))).toEqual([]);
  });

  it('sends the index and unknown paths to practices (replace)', async () => {
    const { router } = setup('/manage-comms/whatever', searchAnswer);
    await waitFor(() => expect(router.state.location.pathname).toBe('/manage-comms/practices'));
    expect(router.state.historyAction).toBe('REPLACE');
    // The tabs render once the user is known to be allowed in (their details load first).
    await waitFor(() => expect(screen.getByRole('link', { name: 'Practices' })).toHaveAttribute('aria-current', 'page'));
    expect(screen.getByRole('link', { name: 'HCPs and Staff' })).toHaveAttribute('href', '/manage-comms/hcps');
  });

  it('refuses a page past the last (?page=9 of 2): the address becomes the last page and its rows show', async () => {
    const { router } = setup('/manage-comms/practices?page=9', searchAnswer);
    const table = await screen.findByRole('table', { name: 'Practices' });
    await within(table).findByText('Practice 29');
    expect(router.state.location.search).toBe('?page=2');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(screen.getByText('Showing 26-30 of 30')).toBeInTheDocument();
    expect(screen.queryByText('No practices matching your search criteria.')).not.toBeInTheDocument();
  });

  it('shows HCP and staff phones as ddd.ddd.dddd (spec §9)', async () => {
    setup('/manage-comms/hcps', (url) =>
      url.pathname.endsWith('/staff')
        ? {
            status: 200,
            body: {
              total: 1,
              records: [
                {
                  id: 's1',
                  name: 'Dana Reyes',
                  role: 'MD',
                  npi: '1234567890',
                  specialty: null,
                  email: null,
                  phoneNumber: '+1 (519) 555-0137',
                  practiceNames: ['Practice 00'],
                },
              ],
            },
          }
        : undefined,
    );
    const table = await screen.findByRole('table');
    expect(await within(table).findByText('519.555.0137')).toBeInTheDocument();
  });

  it('lists practices 25 a page with the spec columns, pages, and searches from page 1', async () => {
    const { fetchMock, router } = setup('/manage-comms/practices?page=1', searchAnswer);
    const table = await screen.findByRole('table', { name: 'Practices' });
    await within(table).findByText('Practice 00');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Location', 'Phone', 'Email', 'Key account', 'Actions']);
    expect(within(table).getAllByRole('link', { name: /^Open / })).toHaveLength(25);
    expect(within(table).getByRole('link', { name: 'Open Practice 00' })).toHaveAttribute(
      'href',
      `/manage-comms/practices/${OFFICE_ID}/edit/details`,
    );
    expect(within(table).getAllByText('Columbus, OH')).toHaveLength(25);
    expect(within(table).getAllByText('Yes')).toHaveLength(13);
    // Spec §9: phones read ddd.ddd.dddd whatever shape they were saved in.
    expect(within(table).getAllByText('614.555.0100')).toHaveLength(25);
    expect(screen.getByText('Showing 1-25 of 30')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    await within(table).findByText('Practice 29');
    expect(router.state.location.search).toBe('?page=2');
    const offsets = fetchMock.mock.calls.map(([u]) => new URL(String(u), 'http://x').searchParams.get('offset')).filter(Boolean);
    expect(offsets).toContain('25');

    const box = screen.getByPlaceholderText('Search by HCP, NPI, or Practice');
    await userEvent.type(box, 'Practice 1{Enter}');
    await within(table).findByText('Practice 10');
    expect(router.state.location.search).toBe('?q=Practice+1');
    expect(screen.getByText('Showing 1-10 of 10')).toBeInTheDocument();

    await userEvent.clear(box);
    await userEvent.type(box, 'nothing like it');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No practices matching your search criteria.')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Practice pages' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    await within(table).findByText('Practice 00');
    expect(router.state.location.search).toBe('');
  });

  it('shows the §8 message when the practices cannot be fetched', async () => {
    setup('/manage-comms/practices', (url) =>
      url.pathname.endsWith('/md-offices-search')
        ? { status: 500, body: { error: { code: 'INTERNAL', message: 'Something went wrong on our side.' } } }
        : undefined,
    );
    expect(await screen.findByText('Failed to fetch MD offices')).toBeInTheDocument();
  });

  it('checks the practice form before sending, and puts the server’s field errors on their fields', async () => {
    const sent: unknown[] = [];
    setup('/manage-comms/practices/create', (url, init) => {
      if (url.pathname.endsWith('/sales-list')) return { status: 200, body: [] };
      if (url.pathname.endsWith('/md-offices') && init.method === 'POST') {
        sent.push(JSON.parse(String(init.body)));
        return {
          status: 409,
          body: {
            error: {
              code: 'CONFLICT',
              message: 'Choose a sales representative from the list.',
              details: [{ path: 'body.email', message: 'This email belongs to another practice.' }],
            },
          },
        };
      }
      return searchAnswer(url);
    });
    await screen.findByRole('heading', { name: 'New practice' });
    await userEvent.click(screen.getByRole('button', { name: 'Create practice' }));
    expect(await screen.findByText('Enter the practice name.')).toBeInTheDocument();
    expect(screen.getByText('Choose a US state.')).toBeInTheDocument();
    expect(screen.getByLabelText('Practice name')).toHaveFocus();
    expect(sent).toEqual([]);

    await userEvent.type(screen.getByLabelText('Practice name'), 'Lake Clinic');
    await userEvent.type(screen.getByLabelText('Street address'), '1 Main St');
    await userEvent.type(screen.getByLabelText('ZIP code'), '43215');
    await userEvent.type(screen.getByLabelText('City'), 'Columbus');
    await userEvent.selectOptions(screen.getByLabelText('State'), 'OH');
    await userEvent.type(screen.getByLabelText('Phone'), '(614) 555-0100');
    await userEvent.type(screen.getByLabelText('Email (optional)'), 'front@lake.example');
    await userEvent.click(screen.getByRole('button', { name: 'Create practice' }));
    expect(await screen.findByText('This email belongs to another practice.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email (optional)')).toHaveAttribute('aria-invalid', 'true');
    expect(sent).toEqual([
      expect.objectContaining({ name: 'Lake Clinic', state: 'OH', faxNumber: null, address2: null, salesUserId: null }),
    ]);
    // A field error goes away once the field is changed (the server's as well as the form's own).
    expect(screen.queryByText('Enter the practice name.')).toBeNull();
    await userEvent.type(screen.getByLabelText('Email (optional)'), 'x');
    await waitFor(() => expect(screen.queryByText('This email belongs to another practice.')).toBeNull());
    expect(screen.getByLabelText('Email (optional)')).not.toHaveAttribute('aria-invalid');
  });

  it('shows a sales user the practice’s representative without a choice, and sends it back unchanged', async () => {
    // Who serves a practice is the administrator’s to change (issue 42): the server refuses anyone else’s change.
    const SALES_ID = '00000000-0000-4000-8000-0000000000aa';
    const sent: unknown[] = [];
    setup(
      `/manage-comms/practices/${OFFICE_ID}/edit/details`,
      (url, init) => {
        if (url.pathname.endsWith('/sales-list'))
          return { status: 200, body: [{ id: SALES_ID, name: 'Sam Sales', email: 's@x' }] };
        if (url.pathname.endsWith(`/md-offices/${OFFICE_ID}`) && init.method === 'PUT') {
          sent.push(JSON.parse(String(init.body)));
          return { status: 200, body: { ...office, salesUserId: SALES_ID } };
        }
        if (url.pathname.endsWith(`/md-offices/${OFFICE_ID}`)) return { status: 200, body: { ...office, salesUserId: SALES_ID } };
        return undefined;
      },
      userDetails({ role: 'provider.sales' }),
    );
    expect(await screen.findByText('Sales representative: Sam Sales')).toBeInTheDocument();
    expect(screen.queryByLabelText('Sales representative')).toBeNull();
    await userEvent.clear(screen.getByLabelText('Practice name'));
    await userEvent.type(screen.getByLabelText('Practice name'), 'Practice 00 North');
    await userEvent.click(screen.getByRole('button', { name: 'Save details' }));
    await waitFor(() => expect(sent).toEqual([expect.objectContaining({ name: 'Practice 00 North', salesUserId: SALES_ID })]));
  });

  it('fills city and state from the ZIP lookup and says so; an unknown ZIP says that instead', async () => {
    setup('/manage-comms/practices/create', (url) => {
      if (url.pathname.endsWith('/sales-list')) return { status: 200, body: [] };
      if (url.pathname.endsWith('/zip-info/59801')) return { status: 200, body: { zip: '59801', city: 'Missoula', state: 'MT' } };
      if (url.pathname.includes('/zip-info/'))
        return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'ZIP code not found.' } } };
      return undefined;
    });
    await userEvent.type(await screen.findByLabelText('ZIP code'), '59801');
    await userEvent.click(screen.getByRole('button', { name: 'Look up ZIP' }));
    expect(await screen.findByText('Missoula, MT filled in from ZIP 59801.')).toBeInTheDocument();
    expect(screen.getByLabelText('City')).toHaveValue('Missoula');
    expect(screen.getByLabelText('State')).toHaveValue('MT');
    await userEvent.clear(screen.getByLabelText('ZIP code'));
    await userEvent.type(screen.getByLabelText('ZIP code'), '00000');
    await userEvent.click(screen.getByRole('button', { name: 'Look up ZIP' }));
    expect(await screen.findByText('ZIP code 00000 was not found.')).toBeInTheDocument();
  });

  it('saves practice preferences with onboarded sent as its inverse, and shows a refused delete’s reason', async () => {
    const sent: unknown[] = [];
    setup(`/manage-comms/practices/${OFFICE_ID}/edit/preferences`, (url, init) => {
      if (url.pathname.endsWith(`/md-offices/${OFFICE_ID}/comm-prefs`)) {
        sent.push(JSON.parse(String(init.body)));
        return { status: 200, body: { ...office, mdOfficePrefs: { ...office.mdOfficePrefs, notOnboarded: true } } };
      }
      if (url.pathname.endsWith(`/md-offices/${OFFICE_ID}`) && init.method === 'DELETE') {
        return {
          status: 409,
          body: { error: { code: 'CONFLICT', message: 'This practice has 3 prescriptions waiting for action.' } },
        };
      }
      if (url.pathname.endsWith(`/md-offices/${OFFICE_ID}`)) return { status: 200, body: office };
      return undefined;
    });
    const onboarded = await screen.findByLabelText('Onboarded');
    expect(onboarded).toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'Fax', exact: true } as never));
    await userEvent.click(onboarded);
    await userEvent.click(screen.getByRole('button', { name: 'Save preferences' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({
      communicationMode: 'fax',
      paHandling: 'PAViaMDDash',
      refillRequestOption: 'eRx',
      notOnboarded: true,
    });

    await userEvent.click(screen.getByRole('button', { name: 'Delete practice' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Practice 00?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete practice' }));
    const refusal = await within(dialog).findByRole('alert');
    expect(refusal).toHaveTextContent('This practice has 3 prescriptions waiting for action.');
    expect(refusal).not.toHaveTextContent('Failed to delete MD office');
  });
});
