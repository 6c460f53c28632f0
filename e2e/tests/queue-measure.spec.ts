/**
 * Issue 22's measure: a prescriber clears 50 mixed items (34 refill requests, 8 prior authorizations of which half
 * need chart notes, 8 substitutions) card by card, then 50 more of the same mix by the queue + bulk + keyboard,
 * all by keyboard in the queue but the one bulk button. Every click and key press is counted (text typed counts one per character), and
 * the time is taken; the ratio is printed. A server of its own (its own data folder) so no other journey's items
 * move under it: started once to seed, its demo prescriber's own queue emptied, started again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Locator, Page } from '@playwright/test';
import { DEMO_PASSWORD, expect, simulatePharmacy, test } from './fixtures.ts';

const MIX = { 'refill-request': 34, 'prior-authorization': 8, substitution: 8 } as const;
const CHART_NOTE = 'E11.9; metformin tried';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '../apps/server/src/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '..'),
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SEED_DEMO: 'on',
      LOG_LEVEL: 'warn',
      AUTH_RATE_LIMIT_PER_MINUTE: '10000',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      DIGEST_POLL_SECONDS: '0',
      DEV_MAIL_LOG: 'off',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the measuring server exited with ${child.exitCode}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the measuring server did not get ready in 2 minutes');
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Counts what the user does: a click is one, a key is one, typed text one per character. */
class Counter {
  clicks = 0;
  keys = 0;
  constructor(private readonly page: Page) {}
  async click(target: Locator) {
    await target.click({ timeout: 15_000 });
    this.clicks += 1;
  }
  async press(key: string) {
    await this.page.keyboard.press(key);
    this.keys += 1;
  }
  async type(field: Locator, text: string) {
    await field.fill(text);
    this.keys += text.length;
  }
  get total() {
    return this.clicks + this.keys;
  }
}

/** The detail page's part of an item, the same on both paths: what the prescriber decides and confirms. */
async function decideOnDetail(page: Page, count: Counter): Promise<string> {
  await page.waitForURL(/\/action-needed\/[^/?]+\/\w+/, { timeout: 15_000 });
  // The detail page's own heading ("Prior authorization: …"), not the list's still on screen as the URL changes.
  await expect(page.getByRole('heading', { level: 1, name: /^[\w ]+: / })).toBeVisible();
  const type = /\/action-needed\/[^/]+\/(\w+)/.exec(page.url())?.[1] as string;
  let kind = type;
  if (type === 'refillAuth') {
    await count.click(page.getByRole('button', { name: 'Authorize by fax' }));
    await count.click(
      page.getByRole('dialog', { name: 'Send this refill authorization by fax?' }).getByRole('button', { name: 'Send by fax' }),
    );
  } else if (type === 'priorAuth') {
    const notes = page.getByRole('textbox', { name: /Chart notes/ });
    if (await notes.isVisible()) {
      kind = 'chartNotes';
      await count.type(notes, CHART_NOTE);
      await count.click(page.getByRole('button', { name: 'Send chart notes' }));
      await count.click(
        page.getByRole('dialog', { name: 'Send these chart notes?' }).getByRole('button', { name: 'Send chart notes' }),
      );
    } else {
      await count.click(page.getByRole('button', { name: 'Dismiss prior authorization' }));
      await count.click(
        page.getByRole('dialog', { name: 'Dismiss this prior authorization?' }).getByRole('button', { name: 'Dismiss' }),
      );
    }
  } else if (type === 'altMed') {
    await count.click(page.getByRole('group', { name: 'Dispense instead' }).getByRole('radio').first());
    await count.click(page.getByRole('button', { name: 'Send to pharmacy' }));
    await count.click(
      page.getByRole('dialog', { name: 'Send this choice to the pharmacy?' }).getByRole('button', { name: 'Send choice' }),
    );
  } else {
    throw new Error(`no decision scripted for ${page.url()}`);
  }
  await page.waitForURL(/\/action-needed(\?.*)?$/);
  return kind;
}

test('50 mixed items: the queue + bulk + keyboard path against card by card (issue 22 measure)', async ({ page }) => {
  test.setTimeout(420_000);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hcp-measure-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await startServer(dataDir, port);
  try {
    // Empty the demo prescriber's own queue, so each path clears exactly the 50 items made for it.
    await stopServer(server);
    const db = new PGlite(path.join(dataDir, 'pglite'));
    await db.query(`update prescriptions set needs_refill_auth = false, phone_exception = false, substitution_status = null,
      prior_auth_status = null, hcp_action_required = false
      where md_office_id = (select id from md_offices where name = 'Morgan Family Medicine')`);
    await db.close();
    server = await startServer(dataDir, port);

    const npi = (JSON.parse(readFileSync(path.join(dataDir, 'pharmacy-simulator.json'), 'utf8')) as { demoPrescriberNpi: string })
      .demoPrescriberNpi;
    const makeFifty = () => {
      for (const [category, n] of Object.entries(MIX)) simulatePharmacy(base, category, n, { dataDir, npi });
    };
    const login = await page.request.post(`${base}/auth-service/login`, {
      data: { email: 'dr.morgan@demo.hcp', username: 'dr.morgan@demo.hcp', password: DEMO_PASSWORD, dashboard: 'MD Dashboard' },
    });
    const tokens = (await login.json()).jwtToken as { accessToken: string; refreshToken: string; userID: string };
    const waiting = async () => {
      const res = await page.request.get(`${base}/api/mdo/v2/users/${tokens.userID}/action-queue`, {
        headers: { authorization: `Bearer ${tokens.accessToken}`, 'x-user-id': tokens.userID },
      });
      return ((await res.json()).items as unknown[]).length;
    };
    expect(await waiting()).toBe(0);
    await page.goto(`${base}/login`);
    await page.evaluate((t) => {
      window.localStorage.setItem('hcp.accessToken', t.accessToken);
      window.localStorage.setItem('hcp.refreshToken', t.refreshToken);
      window.localStorage.setItem('hcp.userId', t.userID);
      window.localStorage.setItem('hcp.tutorialDismissed', 'true');
    }, tokens);

    // Card by card: open each request from the cards, decide, confirm; the page comes back to the cards.
    makeFifty();
    expect(await waiting()).toBe(50);
    const cards = new Counter(page);
    /** Interactions per kind of item on each path: where bulk helps and where it cannot. */
    const byKind = { card: {} as Record<string, number>, queue: {} as Record<string, number> };
    const add = (path: 'card' | 'queue', kind: string, n: number) => {
      byKind[path][kind] = (byKind[path][kind] ?? 0) + n;
    };
    let started = Date.now();
    await page.goto(`${base}/action-needed`);
    const cardList = page.getByRole('list', { name: 'All requests' });
    for (let done = 0; done < 50; done += 1) {
      await expect(cardList).toBeVisible();
      const before = cards.total;
      await cards.click(cardList.getByRole('link').first());
      add('card', await decideOnDetail(page, cards), cards.total - before);
    }
    // With nothing left, the portal goes on to All Patients (spec) or says so.
    await expect(
      page.getByRole('heading', { name: 'All Patients' }).or(page.getByText('Nothing needs you right now.')),
    ).toBeVisible();
    const cardMs = Date.now() - started;
    expect(await waiting()).toBe(0);

    // The queue: a category, Shift+A, the decision key, confirm; per item (o) only where each needs its own input.
    makeFifty();
    expect(await waiting()).toBe(50);
    const queue = new Counter(page);
    started = Date.now();
    await page.goto(`${base}/action-needed?view=queue`);
    const rows = page.getByRole('list', { name: 'Queue, most urgent first' });
    await expect(rows).toBeVisible();
    const category = async (name: RegExp) => {
      await queue.click(page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name }));
      await expect(rows).toBeVisible();
    };
    let mark = queue.total;
    const section = (kind: string) => {
      add('queue', kind, queue.total - mark);
      mark = queue.total;
    };
    await category(/^Refill authorizations/);
    await queue.press('Shift+A');
    await queue.press('a');
    await queue.press('Enter'); // the dialog opens on its confirm button
    await expect(page.getByRole('region', { name: /^34 done/ })).toBeVisible();
    section('refillAuth');

    // The same decisions as card by card: the notices that only need dismissing, selected by walking the rows.
    await category(/^Prior authorizations/);
    const paRows = rows.getByRole('listitem');
    const paCount = await paRows.count();
    for (let i = 0; i < paCount; i += 1) {
      if (i > 0) await queue.press('j');
      if (await paRows.nth(i).getByText('A prior authorization is required').isVisible()) await queue.press('x');
    }
    await queue.click(
      page.getByRole('group', { name: 'Decide the selected items' }).getByRole('button', { name: 'Dismiss PA notices' }),
    );
    await queue.press('Enter');
    await expect(page.getByRole('region', { name: /^4 done/ })).toBeVisible();
    section('priorAuth');
    for (let left = 4; left > 0; left -= 1) {
      await expect(rows.getByRole('listitem')).toHaveCount(left);
      await queue.press('o');
      await decideOnDetail(page, queue);
    }
    section('chartNotes');
    await category(/^Alternative medications/);
    for (let left = 8; left > 0; left -= 1) {
      await expect(rows.getByRole('listitem')).toHaveCount(left);
      await queue.press('o');
      await decideOnDetail(page, queue);
    }
    section('altMed');
    await expect(
      page.getByText(/^No .* need you right now\.$/).or(page.getByRole('heading', { name: 'All Patients' })),
    ).toBeVisible();
    const queueMs = Date.now() - started;
    expect(await waiting()).toBe(0);

    const ratio = queue.total / cards.total;
    const kinds = Object.keys(byKind.card).sort();
    console.log(
      [
        `clear 50 mixed items (${Object.entries(MIX)
          .map(([k, n]) => `${n} ${k}`)
          .join(', ')}):`,
        `  card by card: ${cards.total} interactions (${cards.clicks} clicks, ${cards.keys} keys), ${(cardMs / 1000).toFixed(1)} s`,
        `  queue + bulk + keys: ${queue.total} interactions (${queue.clicks} clicks, ${queue.keys} keys), ${(queueMs / 1000).toFixed(1)} s`,
        `  ratio: ${ratio.toFixed(2)} of the interactions, ${(queueMs / cardMs).toFixed(2)} of the time`,
        ...kinds.map((k) => `  ${k}: card ${byKind.card[k]} vs queue ${byKind.queue[k] ?? 0}`),
      ].join('\n'),
    );
    // What bulk is for: 34 refill requests cost a category, Shift+A, a and Enter, whatever their number.
    expect(byKind.queue.refillAuth).toBe(4);
    expect(byKind.card.refillAuth).toBe(34 * 3);
    // Dismissing 4 of 8 prior authorizations: a category, 7 moves, 4 selections, the button and Enter.
    expect(byKind.queue.priorAuth).toBe(1 + 7 + 4 + 2);
    // Items that need their own input (chart notes, the alternative to dispense) cost the same: o for the card's
    // link, plus the category once.
    expect(byKind.queue.chartNotes).toBe(byKind.card.chartNotes);
    expect(byKind.queue.altMed).toBe((byKind.card.altMed ?? 0) + 1);
    expect(ratio).toBeLessThan(1);
  } finally {
    await stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
});
