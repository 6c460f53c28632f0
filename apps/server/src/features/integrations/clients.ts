/**
 * Registering integration clients: the tenant's admins only (anyone else: 404). The client id is generated
 * here; the keys are the client's public keys, never a secret of ours.
 */
import { type IntegrationClient, type IntegrationClientInput, isAdminUser } from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { actorAllowedBy } from '../../lib/actor.ts';
import { entryOf, writeAudit } from '../../lib/audit.ts';
import { randomToken } from '../../lib/crypto.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { OutboundGuard } from '../../lib/outbound/guard.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export const toClient = (row: repo.ClientRow): IntegrationClient => ({
  id: row.id,
  clientId: row.clientId,
  name: row.name,
  scopes: row.scopes,
  jwksUrl: row.jwksUrl,
  keyCount: (row.jwks as { keys?: unknown[] } | null)?.keys?.length ?? 0,
  createdAt: row.createdAt.toISOString(),
  disabled: row.disabledAt !== null,
});

/** Creates a client for a tenant (the admin screen and API, and the command line). */
export async function registerClient(
  db: Database,
  input: IntegrationClientInput & { tenantId: string; createdBy: string | null },
): Promise<IntegrationClient> {
  const row = await repo.insertClient(db, {
    tenantId: input.tenantId,
    clientId: `hcp-${randomToken(18)}`,
    name: input.name,
    jwks: input.jwks ?? null,
    jwksUrl: input.jwksUrl ?? null,
    scopes: input.scopes,
    createdBy: input.createdBy,
  });
  await writeAudit(db, {
    actorUserId: input.createdBy,
    action: 'integration-client.created',
    entityType: 'integration_client',
    entityId: row.clientId,
    details: { scopes: input.scopes },
  });
  return toClient(row);
}

export function createIntegrationClients(deps: { db: Database; guard: OutboundGuard }) {
  const { db } = deps;
  const admin = (ctx: SignedInContext) => actorAllowedBy(db, ctx.userId, isAdminUser, 'Page');
  return {
    async list(ctx: SignedInContext) {
      const actor = await admin(ctx);
      return { records: (await repo.clientsOfTenant(db, actor.tenantId)).map(toClient) };
    },
    async create(ctx: SignedInContext, input: IntegrationClientInput) {
      const actor = await admin(ctx);
      // The key set is fetched by the server when the client signs in: not from inside our network (issue 43).
      const problem = input.jwksUrl ? deps.guard.urlProblem(input.jwksUrl) : null;
      if (problem) throw new AppError('VALIDATION_FAILED', problem, [{ path: 'body.jwksUrl', message: problem }]);
      return registerClient(db, { ...input, tenantId: actor.tenantId, createdBy: actor.id });
    },
    async disable(ctx: SignedInContext, id: string) {
      const actor = await admin(ctx);
      const row = await repo.disableClient(db, actor.tenantId, id);
      if (!row) throw notFound('Integration client');
      await writeAudit(db, entryOf(ctx, 'integration-client.disabled', 'integration_client', row.clientId));
      return toClient(row);
    },
  };
}
export type IntegrationClients = ReturnType<typeof createIntegrationClients>;
