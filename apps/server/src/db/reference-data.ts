/**
 * Reference data every installation needs, demo or not: the US ZIP table behind zip-info and address
 * verification (docs/decisions/0015-manage-comms.md). It ships with the project as the `zipcodes`
 * package (BSD licence, ~41,000 ZIPs of the 50 states) and is loaded once, after migrations; loading is
 * idempotent and safe for instances starting together (insert ... on conflict do nothing).
 */

import { createRequire } from 'node:module';
import { US_STATES } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from './client.ts';

/** The part of the untyped CommonJS `zipcodes` package read here. */
interface ZipCodeRecord {
  zip: string;
  city: string;
  state: string;
  country: string;
}
const zipcodes = createRequire(import.meta.url)('zipcodes') as { codes: Record<string, ZipCodeRecord> };

const STATES = new Set<string>(US_STATES);
const BATCH = 5_000;

export function bundledZipCodes(): { zip: string; city: string; state: string }[] {
  return Object.values(zipcodes.codes)
    .filter((z) => z.country === 'US' && STATES.has(z.state) && /^\d{5}$/.test(z.zip))
    .map((z) => ({ zip: z.zip, city: z.city, state: z.state }));
}

export async function loadReferenceData(db: Executor): Promise<{ zipCodesLoaded: number }> {
  const rows = bundledZipCodes();
  const existing = (await db.execute(sql`select count(*)::int as n from zip_codes`)) as unknown as { rows: { n: number }[] };
  if ((existing.rows[0]?.n ?? 0) >= rows.length) return { zipCodesLoaded: 0 };
  let loaded = 0;
  for (let i = 0; i < rows.length; i += BATCH) {
    const batch = JSON.stringify(rows.slice(i, i + BATCH));
    const result = (await db.execute(sql`
      insert into zip_codes (zip, city, state)
      select zip, city, state from json_to_recordset(${batch}::json) as z(zip text, city text, state text)
      on conflict (zip) do nothing`)) as unknown as { affectedRows?: number; rowCount?: number };
    loaded += result.affectedRows ?? result.rowCount ?? 0;
  }
  return { zipCodesLoaded: loaded };
}
