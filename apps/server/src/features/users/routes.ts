/** The signed-in user's details and the feature flags (spec §3, §7). */
import {
  apiPaths,
  type FeatureFlags,
  featureFlagsSchema,
  toPrescribeVia,
  USER_ROLE_VALUES,
  type UserDetails,
  userDetailsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { notFound } from '../../lib/errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { findUserDetails, readFeatureFlags } from './repository.ts';

export const usersRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  const tags = ['users'];

  app.get(
    '/api/mdo/v1/users/:userId/mdo-user-details',
    {
      onRequest: app.requireAuth,
      schema: { tags, params: z.object({ userId: z.string() }), response: { 200: userDetailsSchema } },
    },
    async (request): Promise<UserDetails> => {
      // Another user's id answers 404, never 403, so ids cannot be probed (DESIGN §3).
      if (request.params.userId !== authOf(request).userId) throw notFound('User');
      const row = await findUserDetails(db, request.params.userId);
      if (!row) throw notFound('User');
      const role = (USER_ROLE_VALUES as string[]).includes(row.role) ? (row.role as UserDetails['role']) : 'mdo.user';
      return {
        userId: row.id,
        userName: row.displayName,
        email: row.email,
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
        },
        details: { mdOfficeId: row.office?.id ?? null },
        isVAMPracticeUser: row.office?.isVam ?? false,
      };
    },
  );

  app.get(
    apiPaths.featureFlags,
    { onRequest: app.requireAuth, schema: { tags, response: { 200: featureFlagsSchema } } },
    async (): Promise<FeatureFlags> => {
      const flags = new Map((await readFeatureFlags(db)).map((f) => [f.key, f.enabled]));
      return {
        isHarrowPortalEnabled: flags.get('isHarrowPortalEnabled') ?? false,
        isHcpPrescribingEnabled: flags.get('isHcpPrescribingEnabled') ?? false,
      };
    },
  );
};
