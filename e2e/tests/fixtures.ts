import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';

/** Every test fails on a page error or console error, and can assert an axe-clean page. */
export const test = base.extend<{ problems: string[] }>({
  problems: [
    async ({ page }, use) => {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(`console.error: ${message.text()}`);
      });
      await use(problems);
      expect(problems, 'page errors or console errors').toEqual([]);
    },
    { auto: true },
  ],
});
export { expect };

export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa']).analyze();
  const summary = results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
  expect(summary).toEqual([]);
}

/** The signed-in shell only checks that a token and a user id are stored (spec §2). */
export async function storeSession(page: Page): Promise<void> {
  await page.addInitScript(() => {
    window.localStorage.setItem('hcp.accessToken', 'e2e-access-token');
    window.localStorage.setItem('hcp.userId', 'e2e-user');
  });
}
