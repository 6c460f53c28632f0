/** The signed-in user as the permission rules read them (role, user type, tenant, office). */
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';

export interface Actor {
  id: string;
  tenantId: string;
  role: string;
  userType: string;
  mdOfficeId: string | null;
}

export async function findActor(db: Executor, userId: string): Promise<Actor | null> {
  const rows = await db
    .select({
      id: users.id,
      tenantId: users.tenantId,
      role: users.role,
      userType: users.userType,
      mdOfficeId: users.mdOfficeId,
    })
    .from(users)
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .limit(1);
  return rows[0] ?? null;
}
