import { type BrandKey, isBrandKey } from '@hcp/contract';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { appSettings, tenants } from '../../db/schema.ts';

export interface BrandRow {
  key: BrandKey;
  name: string;
  title: string;
  colour: string;
  hostnames: string[];
}

export async function allBrands(db: Executor): Promise<BrandRow[]> {
  const rows = await db.select().from(tenants);
  return rows
    .filter((t) => isBrandKey(t.key))
    .map((t) => ({ key: t.key as BrandKey, name: t.name, title: t.title, colour: t.colour, hostnames: t.hostnames }));
}

/** The global brand setting (app_settings 'defaultBrand'), when set. */
export async function defaultBrandSetting(db: Executor): Promise<string | null> {
  const rows = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.key, 'defaultBrand'))
    .limit(1);
  return typeof rows[0]?.value === 'string' ? rows[0].value : null;
}
