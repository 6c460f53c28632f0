/** SQL of integration clients and their used assertions. */
import { and, desc, eq, isNull, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { integrationAssertions, integrationClients } from '../../db/schema.ts';

export type ClientRow = typeof integrationClients.$inferSelect;

export async function insertClient(db: Executor, values: typeof integrationClients.$inferInsert): Promise<ClientRow> {
  const [row] = await db.insert(integrationClients).values(values).returning();
  if (!row) throw new Error('integration client insert returned no row');
  return row;
}

export function clientsOfTenant(db: Executor, tenantId: string): Promise<ClientRow[]> {
  return db
    .select()
    .from(integrationClients)
    .where(eq(integrationClients.tenantId, tenantId))
    .orderBy(desc(integrationClients.createdAt));
}

export async function disableClient(db: Executor, tenantId: string, id: string): Promise<ClientRow | null> {
  const [row] = await db
    .update(integrationClients)
    .set({ disabledAt: new Date() })
    .where(and(eq(integrationClients.id, id), eq(integrationClients.tenantId, tenantId), isNull(integrationClients.disabledAt)))
    .returning();
  if (row) return row;
  const [existing] = await db
    .select()
    .from(integrationClients)
    .where(and(eq(integrationClients.id, id), eq(integrationClients.tenantId, tenantId)));
  return existing ?? null;
}

/** An enabled client by its public client id. */
export async function enabledClient(db: Executor, clientId: string): Promise<ClientRow | null> {
  const [row] = await db
    .select()
    .from(integrationClients)
    .where(and(eq(integrationClients.clientId, clientId), isNull(integrationClients.disabledAt)))
    .limit(1);
  return row ?? null;
}

/** Records an assertion's jti; false when it was used before (a replay). */
export async function rememberAssertion(db: Executor, clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(integrationAssertions)
    .values({ clientId, jti, expiresAt })
    .onConflictDoNothing()
    .returning({ jti: integrationAssertions.jti });
  return rows.length === 1;
}

export async function purgeAssertions(db: Executor, at: Date): Promise<Record<string, number>> {
  const rows = await db
    .delete(integrationAssertions)
    .where(lt(integrationAssertions.expiresAt, at))
    .returning({ jti: integrationAssertions.jti });
  return { integrationAssertions: rows.length };
}
