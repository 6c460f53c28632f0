/**
 * The daily EPCS report counts its days in the reports' zone (AUDIT_TIME_ZONE), which the tenant answer names: at
 * 22:00 in New York the browser in UTC is already on the next day, and a report of that day would be empty (the EPCS
 * journey failed in CI between 00:00 and 05:00 UTC). Today, and the day asked for, are New York's.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BrandProvider } from '../../../lib/brand/brand.tsx';
import { saveSession } from '../../../lib/storage.ts';
import { EpcsReportSection } from './epcs-report.tsx';

const PRACTICE = '00000000-0000-4000-8000-000000000001';
const main = { key: 'main', name: 'HCP Portal', title: 'HCP Portal', colour: '#0b5cab' };

function setup(reportTimeZone: string) {
  saveSession({ accessToken: 'a', refreshToken: 'r', userID: 'u1' });
  const fetchMock = vi.fn(async (url: string) => {
    const body = url.includes('/tenant')
      ? { tenant: main, forced: false, brands: [main], reportTimeZone }
      : { day: new URL(url, 'http://x').searchParams.get('day'), signed: [], incidents: [] };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <BrandProvider>
        <EpcsReportSection practiceId={PRACTICE} practiceName="Morgan Family Medicine" />
      </BrandProvider>
    </QueryClientProvider>,
  );
  return fetchMock;
}

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('the daily EPCS report', () => {
  it('asks for today in the reports’ zone, not the browser’s, and says which zone its days run in', async () => {
    // 03:00 UTC on 5 December is 22:00 on 4 December in New York.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T03:00:00Z'));
    const fetchMock = setup('America/New_York');
    expect(await screen.findByText('Days run midnight to midnight, America/New York time.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveValue('12/04/2026');
    await userEvent.click(screen.getByRole('button', { name: 'Show report' }));
    expect(await screen.findByRole('table', { name: 'Controlled substances signed on 2026-12-04' })).toBeInTheDocument();
    const asked = fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('epcs-report'));
    expect(asked).toEqual([expect.stringContaining('day=2026-12-04')]);
  });

  it('follows the zone the server names (Auckland is already on the 6th)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-12-05T13:00:00Z'));
    setup('Pacific/Auckland');
    expect(await screen.findByText('Days run midnight to midnight, Pacific/Auckland time.')).toBeVisible();
    expect(screen.getByRole('textbox', { name: 'Day' })).toHaveValue('12/06/2026');
  });
});
