/**
 * GET /api/mdo/v1/tenant (public, also before sign-in): the brand this page shows and both brands, resolved
 * by the contract's rule from the request's hostname, the client's stored choice (?brand=) and the global
 * setting (app_settings 'defaultBrand'). docs/decisions/0016-brands.md. It also names the reports' time zone
 * (AUDIT_TIME_ZONE): the page's report screens count their days in it.
 */
import { brandQuerySchema, resolveBrand, type Tenant, type TenantResponse, tenantResponseSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { allBrands, type BrandRow, defaultBrandSetting } from './repository.ts';

export const brandsRoutes: FastifyPluginAsyncZod<{ db: Database; reportTimeZone: string }> = async (
  app,
  { db, reportTimeZone },
) => {
  app.get(
    '/api/mdo/v1/tenant',
    { schema: { tags: ['brands'], querystring: brandQuerySchema, response: { 200: tenantResponseSchema } } },
    async (request, reply): Promise<TenantResponse> => {
      const [brands, globalSetting] = await Promise.all([allBrands(db), defaultBrandSetting(db)]);
      const resolution = resolveBrand({
        hostname: request.hostname.replace(/:\d+$/, ''),
        brands,
        storedChoice: request.query.brand ?? null,
        globalSetting,
      });
      const toTenant = ({ key, name, title, colour }: BrandRow): Tenant => ({ key, name, title, colour });
      const main = brands.find((b) => b.key === 'main');
      const tenant = brands.find((b) => b.key === resolution.brand) ?? main;
      if (!tenant) throw new Error('The tenants table has no main brand; run the migrations and seed.');
      reply.header('cache-control', 'no-cache');
      return { tenant: toTenant(tenant), forced: resolution.forced, brands: brands.map(toTenant), reportTimeZone };
    },
  );
};
