/** The signed-in user's details, feature flags and own preferences (spec §3, §7). */
import {
  type FeatureFlags,
  isBrandKey,
  isPrescriberRole,
  toPrescribeVia,
  USER_ROLE_VALUES,
  type UserDetails,
  type UserPreferences,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { signingOf } from '../../lib/signing.ts';
import { findUserDetails, readFeatureFlags, updateUserPreferences } from './repository.ts';

export function createUsersService(deps: { db: Database }) {
  const { db } = deps;

  async function details(userId: string): Promise<UserDetails> {
    const row = await findUserDetails(db, userId);
    if (!row) throw notFound('User');
    const role = (USER_ROLE_VALUES as string[]).includes(row.role) ? (row.role as UserDetails['role']) : 'mdo.user';
    // Which requests this prescriber signs (decision 0041); the screens offer the rest for preparing.
    const signing = role === 'mdo.user' && isPrescriberRole(row.staffRole) ? (await signingOf(db, userId)).facts : null;
    return {
      userId: row.id,
      userName: row.displayName,
      email: row.email,
      phoneNumber: row.phone,
      role,
      mdOfficeUser: row.userType ? { userType: row.userType, role: row.staffRole } : null,
      mdOfficePrefs: row.office
        ? {
            prescribeVia: toPrescribeVia(row.office.prescribeVia),
            harrowPortalAccess: row.office.harrowPortalAccess,
            prescribingEnabled: row.office.prescribingEnabled,
            notOnboarded: row.office.notOnboarded,
          }
        : null,
      mdOfficeUserPrefs: {
        skipPriorAuthDismissNotice: row.skipPriorAuthDismissNotice,
        skipErxConfirmation: row.skipErxConfirmation,
        skipSendConfirmation: row.skipSendConfirmation,
        newRequestNotices: row.newRequestNotices,
      },
      details: { mdOfficeId: row.office?.id ?? null, mdStaffId: row.mdStaffId ?? null },
      isVAMPracticeUser: row.office?.isVam ?? false,
      ...(row.privacyOfficer && role === 'provider.admin' ? { privacyOfficer: true } : {}),
      brand: isBrandKey(row.tenantKey) ? row.tenantKey : 'main',
      accountManager:
        row.office?.isVam && row.office.accountManagerName
          ? { name: row.office.accountManagerName, phone: row.office.accountManagerPhone, email: row.office.accountManagerEmail }
          : null,
      signing,
    };
  }

  return {
    details,

    async featureFlags(): Promise<FeatureFlags> {
      const flags = new Map((await readFeatureFlags(db)).map((f) => [f.key, f.enabled]));
      return {
        isHarrowPortalEnabled: flags.get('isHarrowPortalEnabled') ?? false,
        isHcpPrescribingEnabled: flags.get('isHcpPrescribingEnabled') ?? false,
      };
    },

    async updatePreferences(ctx: SignedInContext, prefs: UserPreferences): Promise<UserDetails> {
      await db.transaction(async (tx) => {
        const changed = await updateUserPreferences(tx, ctx.userId, {
          displayName: prefs.userName,
          phone: prefs.phoneNumber,
          skipPriorAuthDismissNotice: prefs.skipPriorAuthDismissNotice,
          skipErxConfirmation: prefs.skipErxConfirmation,
          ...(prefs.newRequestNotices === undefined ? {} : { newRequestNotices: prefs.newRequestNotices }),
          ...(prefs.skipSendConfirmation === undefined ? {} : { skipSendConfirmation: prefs.skipSendConfirmation }),
        });
        if (!changed) throw notFound('User');
        await writeAudit(tx, {
          actorUserId: ctx.userId,
          action: 'user.preferences.update',
          entityType: 'user',
          entityId: ctx.userId,
          requestId: ctx.requestId,
          ip: ctx.ip,
        });
      });
      return details(ctx.userId);
    },
  };
}
export type UsersService = ReturnType<typeof createUsersService>;
