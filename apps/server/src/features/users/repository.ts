import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { featureFlags, mdOffices, mdStaff, tenants, users } from '../../db/schema.ts';

export async function findUserDetails(db: Executor, userId: string) {
  const rows = await db
    .select({
      id: users.id,
      displayName: users.displayName,
      email: users.email,
      phone: users.phone,
      role: users.role,
      userType: users.userType,
      skipPriorAuthDismissNotice: users.skipPriorAuthDismissNotice,
      skipErxConfirmation: users.skipErxConfirmation,
      skipSendConfirmation: users.skipSendConfirmation,
      newRequestNotices: users.newRequestNotices,
      privacyOfficer: users.privacyOfficer,
      staffRole: mdStaff.role,
      mdStaffId: users.mdStaffId,
      tenantKey: tenants.key,
      office: {
        id: mdOffices.id,
        prescribeVia: mdOffices.prescribeVia,
        harrowPortalAccess: mdOffices.harrowPortalAccess,
        prescribingEnabled: mdOffices.prescribingEnabled,
        notOnboarded: mdOffices.notOnboarded,
        isVam: mdOffices.isVam,
        accountManagerName: mdOffices.accountManagerName,
        accountManagerPhone: mdOffices.accountManagerPhone,
        accountManagerEmail: mdOffices.accountManagerEmail,
      },
    })
    .from(users)
    .innerJoin(tenants, eq(tenants.id, users.tenantId))
    .leftJoin(mdStaff, eq(mdStaff.id, users.mdStaffId))
    .leftJoin(mdOffices, eq(mdOffices.id, users.mdOfficeId))
    .where(eq(users.id, userId))
    .limit(1);
  return rows[0] ?? null;
}

export async function readFeatureFlags(db: Executor) {
  return db.select({ key: featureFlags.key, enabled: featureFlags.enabled }).from(featureFlags);
}

export async function updateUserPreferences(
  db: Executor,
  userId: string,
  values: Pick<typeof users.$inferInsert, 'displayName' | 'phone' | 'skipPriorAuthDismissNotice' | 'skipErxConfirmation'> &
    Partial<Pick<typeof users.$inferInsert, 'newRequestNotices' | 'skipSendConfirmation'>>,
): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ ...values, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), isNull(users.disabledAt)))
    .returning({ id: users.id });
  return rows.length > 0;
}
