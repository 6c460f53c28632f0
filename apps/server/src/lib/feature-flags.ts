/** Whether a feature flag is on (a missing flag is off). */
import { eq } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { featureFlags } from '../db/schema.ts';

export async function isFlagEnabled(db: Executor, key: string): Promise<boolean> {
  const rows = await db.select({ enabled: featureFlags.enabled }).from(featureFlags).where(eq(featureFlags.key, key)).limit(1);
  return rows[0]?.enabled === true;
}
