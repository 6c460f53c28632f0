/**
 * The Rx list in Debian's Chromium: load and re-sort 10,000 rows (the server's cap) against the same
 * screen with 100 rows, measured in the page from the click to the next frame. Budget: 200 ms each.
 * The rows are served by the bench's own server over loopback HTTP (no database in the loop).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { RxListItem } from '@hcp/contract';
import { chromium } from 'playwright-core';
import { REPO_ROOT } from '../../apps/server/src/config.ts';
import { wrapPglite } from '../../apps/server/src/db/client.ts';
import { seedDemoData } from '../../apps/server/src/seed/index.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.ts';
import { benchSignIn, startBenchApp } from './bench-app.ts';
import { interleavedRatio } from './measure.ts';

function rows(n: number): RxListItem[] {
  const now = Date.now();
  const stamp = (t: number) => new Date(t).toISOString().replace('T', ' ').slice(0, 19);
  return Array.from({ length: n }, (_, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    practiceName: `Practice ${(i * 7919) % 97}`,
    patientName: `Patient ${(i * 104729) % 10007}`,
    patientDob: '1970-04-05',
    prescriptionName: `Drug ${(i * 31) % 53} 20 mg`,
    isWholeSale: i % 20 === 0,
    orderNumber: String(100000 + i),
    prescribedDate: stamp(now - (600 + ((i * 6151) % 80_000)) * 1000),
    orderStatus: i % 3 === 0 ? 'Price Verification' : 'Processing',
    pending: i % 4 === 0,
    lastProcessedDate: stamp(now - 3_600_000),
    prescriberName: `Prescriber ${(i * 13) % 211}`,
    prescriberPhoneNumber: '(614) 555-0101',
    prescriberCreatedDate: '2024-02-03 10:00:00',
    prescriberSpecialty: 'Family Medicine',
    price: i % 3 === 0 ? 42 : null,
  }));
}

export async function rxListRenderBench(): Promise<void> {
  const webDist = path.join(REPO_ROOT, 'apps/web/dist');
  if (!existsSync(path.join(webDist, 'index.html'))) {
    console.log('rx-list-render: skipped, build the web app first (npm run build)');
    return;
  }
  const client = new PGlite();
  const database = wrapPglite(client);
  await database.migrate();
  await seedDemoData(database.db, { size: 'small' });
  // The rows come from this process over loopback HTTP (as from a real server, without the database).
  const served = { body: '[]' };
  const { app, base: loopback } = await startBenchApp(database, { WEB_DIST: webDist }, (instance) =>
    instance.addHook('onRequest', async (request, reply) => {
      if (request.url.includes('/rx-list?')) await reply.type('application/json').send(served.body);
    }),
  );
  // The app's hostname decides the brand: use localhost, as a person would.
  const base = loopback.replace('127.0.0.1', 'localhost');
  const jwtToken = await benchSignIn(base, 'admin@demo.hcp');

  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
  });
  try {
    /** A signed-in Rx list page whose Load Rx answers come from `served.body`. */
    const openPage = async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      served.body = '[]';
      await page.addInitScript(
        `localStorage.setItem('hcp.accessToken', ${JSON.stringify(jwtToken.accessToken)});
         localStorage.setItem('hcp.refreshToken', ${JSON.stringify(jwtToken.refreshToken)});
         localStorage.setItem('hcp.userId', ${JSON.stringify(jwtToken.userID)});`,
      );
      await page.goto(`${base}/rx-list`);
      await page.getByRole('heading', { name: 'New Prescriptions List (0)' }).waitFor();
      return { context, page };
    };
    let loadsDone = 0;
    /** Load: from the click until the title shows the count and a frame has been drawn. */
    const loadRows = async (page: Awaited<ReturnType<typeof openPage>>['page'], n: number) => {
      // A different count each time, so the screen is known to show this load and not the one before.
      const expected = n - (loadsDone++ % 50);
      served.body = JSON.stringify(rows(expected));
      // (Strings, not functions: tsx would wrap functions in a helper that does not exist in the page.)
      return Number(
        await page.evaluate(`(async () => {
          const t0 = performance.now();
          [...document.querySelectorAll('button')].find((b) => b.textContent === 'Load Rx').click();
          await new Promise((resolve) => {
            const check = () =>
              document.querySelector('h1')?.textContent?.includes('(${expected})') && !document.querySelector('[aria-busy="true"]')
                ? requestAnimationFrame(() => resolve())
                : requestAnimationFrame(check);
            check();
          });
          return performance.now() - t0;
        })()`),
      );
    };
    /** Re-sort: click a column header; React renders the click synchronously, then wait for the frame. */
    const sortRows = async (page: Awaited<ReturnType<typeof openPage>>['page']) =>
      Number(
        await page.evaluate(`(async () => {
          const button = [...document.querySelectorAll('th button')].find((b) => b.textContent.startsWith('Patient'));
          const t0 = performance.now();
          button.click();
          await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
          return performance.now() - t0;
        })()`),
      );
    const small = await openPage();
    const large = await openPage();
    await interleavedRatio(
      'rx-list-render',
      'Load Rx with 10,000 rows',
      '100 rows',
      5,
      () => loadRows(large.page, 10_000),
      () => loadRows(small.page, 100),
      (a, b) =>
        `${a.toFixed(0)} ms vs ${b.toFixed(0)} ms (budget 200 ms): click to drawn frame, incl. the 4 MB loopback ` +
        'transfer, JSON parse, schema check, sort and render',
    );
    await interleavedRatio(
      'rx-list-sort',
      're-sort 10,000 rows',
      '100 rows',
      5,
      () => sortRows(large.page),
      () => sortRows(small.page),
      (a, b) => `${a.toFixed(0)} ms vs ${b.toFixed(0)} ms (budget 200 ms), click to second frame`,
    );
    await small.context.close();
    await large.context.close();
  } finally {
    await browser.close();
    await app.close();
    await client.close();
  }
}
