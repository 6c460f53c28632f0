/** The signed-in user as the permission rules read them (role, user type, tenant, office). */
import type { RoleSubject } from '@hcp/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { users } from '../db/schema.ts';
import { notFound } from './errors.ts';

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

/** The actor as the contract's role rules read a user. */
export const roleSubjectOf = (actor: Actor): RoleSubject => ({ role: actor.role, mdOfficeUser: { userType: actor.userType } });

/**
 * The signed-in user when the contract's rule lets them use a feature; otherwise the feature does not exist for
 * them (404, never 403: DESIGN §3).
 */
export async function actorAllowedBy(
  db: Executor,
  userId: string,
  rule: (user: RoleSubject) => boolean,
  what?: string,
): Promise<Actor> {
  const actor = await findActor(db, userId);
  if (!actor || !rule(roleSubjectOf(actor))) throw notFound(what);
  return actor;
}
