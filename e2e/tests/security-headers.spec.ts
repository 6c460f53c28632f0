/**
 * Security headers and the content security policy on every page the server serves (issue 18): a strict CSP
 * (no inline or eval'd script, no framing), nosniff, no referrer, HSTS; the built pages carry no inline script;
 * and no page trips the policy while it runs.
 */
import { ROUTES } from '@hcp/contract';
import { expect, signInAs, test } from './fixtures.ts';

const PAGES = Object.values(ROUTES).map((route) =>
  route
    .replace(':prescriptionId', '00000000-0000-4000-8000-000000000000')
    .replace(':authType', 'refillAuth')
    .replace(':patientId', '00000000-0000-4000-8000-000000000000')
    .replace(':mdOfficeId', '00000000-0000-4000-8000-000000000000')
    .replace('/:token?', '/not-a-token')
    .replace(':token', 'not-a-token'),
);

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((parts) => parts[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

test('every served page has the strict headers and no inline script', async ({ request }) => {
  for (const path of [...PAGES, '/api/mdo/v1/tenant']) {
    const res = await request.get(path);
    const headers = res.headers();
    const csp = directives(headers['content-security-policy'] ?? '');
    expect(csp.get('default-src'), path).toEqual(["'self'"]);
    expect(csp.get('script-src'), path).toEqual(["'self'"]);
    for (const [name, values] of csp) {
      expect(values, `${path} ${name}`).not.toContain("'unsafe-inline'");
      expect(values, `${path} ${name}`).not.toContain("'unsafe-eval'");
    }
    expect(csp.get('frame-ancestors'), path).toEqual(["'none'"]);
    expect(csp.get('object-src'), path).toEqual(["'none'"]);
    expect(headers['x-content-type-options'], path).toBe('nosniff');
    expect(headers['referrer-policy'], path).toBe('no-referrer');
    expect(headers['strict-transport-security'], path).toContain('max-age=31536000');
    if ((headers['content-type'] ?? '').includes('text/html')) {
      const html = await res.text();
      // Every <script> loads a file; none carries code of its own.
      for (const tag of html.match(/<script\b[^>]*>[\s\S]*?<\/script>/gi) ?? []) {
        expect(tag, path).toMatch(/\ssrc=/);
        expect(
          tag
            .replace(/<script\b[^>]*>/i, '')
            .replace(/<\/script>/i, '')
            .trim(),
          path,
        ).toBe('');
      }
    }
  }
});

test('no page trips the content security policy while it runs', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      (window as unknown as { cspViolations: string[] }).cspViolations.push(
        `${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber}`,
      ),
    );
  });
  await signInAs(page, 'dr.morgan@demo.hcp');
  for (const path of PAGES.filter((p) => p !== '/logout')) {
    await page.goto(path);
    // Each page has rendered its heading (its scripts and first data loads have run).
    await expect(page.locator('h1').first(), path).toBeVisible({ timeout: 15_000 });
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    expect(violations, path).toEqual([]);
  }
});

test('the built scripts are served, their source maps are not', async ({ request }) => {
  const html = await (await request.get('/login')).text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1] as string);
  expect(scripts.length).toBeGreaterThan(0);
  for (const src of scripts) {
    expect((await request.get(src)).status()).toBe(200);
    expect((await request.get(`${src}.map`)).status()).toBe(404);
  }
});
