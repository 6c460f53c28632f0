/**
 * Webhook endpoints and their deliveries, for the tenant's admins only (anyone else: 404). The secret is made
 * here, answered once (on creation and on each rotation), and after a rotation the previous one keeps signing
 * beside the new one for a day, so the receiver can switch without losing a message.
 */
import { randomBytes } from 'node:crypto';
import {
  isAdminUser,
  WEBHOOK_SECRET_OVERLAP_MS,
  type WebhookDelivery,
  type WebhookDeliveryStatus,
  type WebhookEndpoint,
  type WebhookEndpointInput,
  type WebhookEndpointUpdate,
  type WebhookEndpointWithSecret,
  type WebhookEvent,
} from '@hcp/contract';
import type { Database } from '../../../db/client.ts';
import { actorAllowedBy } from '../../../lib/actor.ts';
import { entryOf, writeAudit } from '../../../lib/audit.ts';
import { AppError, notFound } from '../../../lib/errors.ts';
import type { OutboundGuard } from '../../../lib/outbound/guard.ts';
import type { SignedInContext } from '../../../lib/route-helpers.ts';
import * as repo from './repository.ts';

/** whsec_ + 32 random bytes, base64 (the Standard Webhooks secret format). */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function toEndpoint(row: repo.EndpointRow, counts: WebhookEndpoint['counts'] | undefined): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEvent[],
    enabled: row.disabledAt === null,
    disabledReason: row.disabledAt === null ? null : row.disabledReason === 'gone' ? 'gone' : 'admin',
    createdAt: row.createdAt.toISOString(),
    previousSecretValidUntil:
      row.previousSecretUntil && row.previousSecretUntil > new Date() ? iso(row.previousSecretUntil) : null,
    counts: counts ?? { waiting: 0, failing: 0, dead: 0, delivered: 0 },
  };
}

function statusOf(row: repo.DeliveryRow): WebhookDeliveryStatus {
  if (row.status === 'delivered' || row.status === 'dead' || row.status === 'sending') return row.status;
  return row.firstAttemptAt ? 'failing' : 'waiting';
}

export function toDelivery(row: repo.DeliveryRow): WebhookDelivery {
  const open = row.status === 'pending';
  return {
    id: row.id,
    event: row.eventType as WebhookEvent,
    prescriptionId: row.prescriptionId,
    status: statusOf(row),
    attempts: row.attempts,
    lastStatus: row.lastStatus,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    lastAttemptAt: iso(row.lastAttemptAt),
    nextAttemptAt: open ? iso(row.nextAttemptAt) : null,
    deliveredAt: iso(row.deliveredAt),
  };
}

export function createWebhookEndpoints(deps: { db: Database; allowHttp: boolean; guard: OutboundGuard }) {
  const { db } = deps;
  const admin = (ctx: SignedInContext) => actorAllowedBy(db, ctx.userId, isAdminUser, 'Page');

  /**
   * https (outside development), and not an internal address however it is written (issue 43): refused here so the
   * admin hears it at once; a name is checked again each time it is called, whatever it then resolves to.
   */
  function checkUrl(url: string | undefined) {
    if (!url) return;
    const message = !deps.allowHttp && !url.startsWith('https://') ? 'The address must be https.' : deps.guard.urlProblem(url);
    if (message) throw new AppError('VALIDATION_FAILED', message, [{ path: 'body.url', message }]);
  }

  async function withCounts(rows: repo.EndpointRow[]) {
    const counts = await repo.deliveryCounts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => toEndpoint(row, counts.get(row.id)));
  }
  const withCount = async (row: repo.EndpointRow) => (await withCounts([row]))[0] as WebhookEndpoint;

  async function endpointOf(ctx: SignedInContext, id: string) {
    const actor = await admin(ctx);
    const row = await repo.endpointOfTenant(db, actor.tenantId, id);
    if (!row) throw notFound('Webhook endpoint');
    return row;
  }

  return {
    async list(ctx: SignedInContext) {
      const actor = await admin(ctx);
      return { records: await withCounts(await repo.endpointsOfTenant(db, actor.tenantId)) };
    },

    async create(ctx: SignedInContext, input: WebhookEndpointInput): Promise<WebhookEndpointWithSecret> {
      const actor = await admin(ctx);
      checkUrl(input.url);
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const created = await repo.insertEndpoint(tx, {
          tenantId: actor.tenantId,
          url: input.url,
          description: input.description || null,
          events: [...new Set(input.events)],
          secret,
          createdBy: actor.id,
        });
        await writeAudit(
          tx,
          entryOf(ctx, 'webhook-endpoint.created', 'webhook_endpoint', created.id, { events: created.events }),
        );
        return created;
      });
      return { endpoint: toEndpoint(row, undefined), secret };
    },

    async update(ctx: SignedInContext, id: string, input: WebhookEndpointUpdate): Promise<WebhookEndpoint> {
      const current = await endpointOf(ctx, id);
      checkUrl(input.url);
      const row = await db.transaction(async (tx) => {
        const updated = await repo.updateEndpoint(tx, current.id, {
          ...(input.url !== undefined && { url: input.url }),
          ...(input.description !== undefined && { description: input.description || null }),
          ...(input.events !== undefined && { events: [...new Set(input.events)] }),
          ...(input.enabled === true && { disabledAt: null, disabledReason: null }),
          ...(input.enabled === false && current.disabledAt === null && { disabledAt: new Date(), disabledReason: 'admin' }),
        });
        await writeAudit(
          tx,
          entryOf(ctx, 'webhook-endpoint.updated', 'webhook_endpoint', id, { changed: Object.keys(input).sort() }),
        );
        return updated;
      });
      return withCount(row);
    },

    async rotateSecret(ctx: SignedInContext, id: string): Promise<WebhookEndpointWithSecret> {
      const current = await endpointOf(ctx, id);
      const secret = newSecret();
      const row = await db.transaction(async (tx) => {
        const locked = await repo.endpointOfTenant(tx, current.tenantId, id, true);
        if (!locked) throw notFound('Webhook endpoint');
        const updated = await repo.updateEndpoint(tx, id, {
          secret,
          previousSecret: locked.secret,
          previousSecretUntil: new Date(Date.now() + WEBHOOK_SECRET_OVERLAP_MS),
        });
        await writeAudit(tx, entryOf(ctx, 'webhook-endpoint.secret-rotated', 'webhook_endpoint', id));
        return updated;
      });
      return { endpoint: await withCount(row), secret };
    },

    async deliveries(
      ctx: SignedInContext,
      id: string,
      query: { status?: WebhookDeliveryStatus | undefined; page: number; pageSize: number },
    ) {
      const endpoint = await endpointOf(ctx, id);
      const { rows, total } = await repo.deliveriesOf(db, endpoint.id, query.status, {
        limit: query.pageSize,
        offset: (query.page - 1) * query.pageSize,
      });
      return { records: rows.map(toDelivery), total };
    },

    async redeliver(ctx: SignedInContext, id: string, deliveryId: string): Promise<WebhookDelivery> {
      const endpoint = await endpointOf(ctx, id);
      const [row] = await repo.redeliver(db, endpoint.id, [deliveryId]);
      if (!row) {
        if (!(await repo.deliveryOfEndpoint(db, endpoint.id, deliveryId))) throw notFound('Delivery');
        throw new AppError('CONFLICT', 'This delivery is being sent right now; try again in a moment.');
      }
      await writeAudit(db, entryOf(ctx, 'webhook-delivery.redelivered', 'webhook_delivery', deliveryId));
      return toDelivery(row);
    },

    async redeliverFailed(ctx: SignedInContext, id: string) {
      const endpoint = await endpointOf(ctx, id);
      const rows = await repo.redeliver(db, endpoint.id, 'dead');
      await writeAudit(db, entryOf(ctx, 'webhook-delivery.redelivered', 'webhook_endpoint', id, { count: rows.length }));
      return { redelivered: rows.length };
    },
  };
}
export type WebhookEndpoints = ReturnType<typeof createWebhookEndpoints>;
