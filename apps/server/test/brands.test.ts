/** GET /api/mdo/v1/tenant: the brand of a page by hostname, stored choice and global setting. */
import { tenantResponseSchema } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

async function tenantOn(host: string, brand?: string) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/mdo/v1/tenant${brand ? `?brand=${brand}` : ''}`,
    headers: { host },
  });
  expect(res.statusCode).toBe(200);
  return tenantResponseSchema.parse(res.json());
}

describe('brand of a page', () => {
  it('is forced on each brand’s dedicated hostname, whatever the stored choice', async () => {
    const harrow = await tenantOn('harrow.localhost:3000', 'main');
    expect(harrow.tenant).toEqual({ key: 'harrow', name: 'Harrow', title: 'Harrow HCP Portal', colour: '#6d2077' });
    expect(harrow.forced).toBe(true);
    const main = await tenantOn('portal.hcp.localhost', 'harrow');
    expect(main.tenant.key).toBe('main');
    expect(main.forced).toBe(true);
    expect(main.brands.map((b) => b.key).sort()).toEqual(['harrow', 'main']);
  });

  it('follows the stored choice elsewhere, then the global setting, then the main brand; junk is ignored', async () => {
    expect((await tenantOn('localhost:3000', 'harrow')).tenant.key).toBe('harrow');
    expect((await tenantOn('localhost:3000', 'harrow')).forced).toBe(false);
    expect((await tenantOn('localhost:3000')).tenant).toMatchObject({ key: 'main', title: 'HCP Portal' });
    expect((await tenantOn('localhost:3000', 'acme')).tenant.key).toBe('main');
    await t.database.db.update(s.appSettings).set({ value: 'harrow' }).where(eq(s.appSettings.key, 'defaultBrand'));
    try {
      expect((await tenantOn('localhost:3000')).tenant.key).toBe('harrow');
      expect((await tenantOn('localhost:3000', 'main')).tenant.key).toBe('main');
    } finally {
      await t.database.db.update(s.appSettings).set({ value: 'main' }).where(eq(s.appSettings.key, 'defaultBrand'));
    }
  });

  it('names the reports’ time zone (AUDIT_TIME_ZONE), so report screens count days in it', async () => {
    expect((await tenantOn('localhost:3000')).reportTimeZone).toBe('America/New_York');
    const auckland = await buildTestApp({ database: t.database, env: { AUDIT_TIME_ZONE: 'Pacific/Auckland' } });
    try {
      const res = await auckland.app.inject({ method: 'GET', url: '/api/mdo/v1/tenant' });
      expect(tenantResponseSchema.parse(res.json()).reportTimeZone).toBe('Pacific/Auckland');
    } finally {
      await auckland.app.close();
    }
  });
});
