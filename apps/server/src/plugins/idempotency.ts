/**
 * Idempotent writes (DESIGN §3): a signed-in write that carries a well-formed x-request-id is recorded
 * under (user, request id) before it runs; a repeat of it answers the stored first answer and changes
 * nothing. Routes opt in with `onRequest: app.requireAuth, preHandler: app.idempotent`.
 *
 * The key is claimed before the handler runs (insert … on conflict do nothing), so two copies of one
 * request racing each other cannot both act: the second sees "in progress" and gets 409. A 5xx answer
 * releases the key so the same request can be retried; any other answer (200, 400, 404, 409) is kept.
 */
import { API_HEADERS, isRequestId } from '@hcp/contract';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { authOf } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: { userId: string; requestId: string } | null;
  }
  interface FastifyInstance {
    idempotent: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/** Keys are kept a day: long enough for any client retry, short enough to keep the table small. */
export const IDEMPOTENCY_KEY_HOURS = 24;

export async function purgeIdempotencyKeys(db: Database, now: Date): Promise<Record<string, number>> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_KEY_HOURS * 3_600_000);
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, cutoff))
    .returning({ requestId: idempotencyKeys.requestId });
  return { idempotencyKeys: rows.length };
}

export const REPLAY_HEADER = 'idempotent-replayed';
/** A claimed key whose request never finished (process killed) is given up after this long. */
const ABANDONED_AFTER_SECONDS = 60;
const IN_PROGRESS = 0;

export function registerIdempotency(app: FastifyInstance, db: Database): void {
  app.decorateRequest('idempotencyKey', null);

  app.decorate('idempotent', async (request: FastifyRequest, reply: FastifyReply) => {
    const header = request.headers[API_HEADERS.requestId];
    if (!isRequestId(header)) return;
    const { userId } = authOf(request);
    const key = { userId, requestId: header };
    const claimed = await db
      .insert(idempotencyKeys)
      .values({ ...key, method: request.method, path: request.url, statusCode: IN_PROGRESS, body: null })
      .onConflictDoNothing()
      .returning({ requestId: idempotencyKeys.requestId });
    if (claimed.length === 1) {
      request.idempotencyKey = key;
      return;
    }

    const [stored] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.requestId, header)));
    if (!stored) throw new AppError('CONFLICT', 'The same request is being processed. Try again in a moment.');
    if (stored.method !== request.method || stored.path !== request.url) {
      throw new AppError('CONFLICT', 'This request id was already used for a different request.');
    }
    if (stored.statusCode === IN_PROGRESS) {
      const taken = await db
        .update(idempotencyKeys)
        .set({ createdAt: new Date() })
        .where(
          and(
            eq(idempotencyKeys.userId, userId),
            eq(idempotencyKeys.requestId, header),
            eq(idempotencyKeys.statusCode, IN_PROGRESS),
            sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${ABANDONED_AFTER_SECONDS})`,
          ),
        )
        .returning({ requestId: idempotencyKeys.requestId });
      if (taken.length === 1) {
        request.idempotencyKey = key;
        return;
      }
      throw new AppError('CONFLICT', 'The same request is being processed. Try again in a moment.');
    }
    request.log.info({ replayOf: header }, 'idempotent replay');
    await reply
      .code(stored.statusCode)
      .header(REPLAY_HEADER, 'true')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(stored.body));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = null;
    const where = and(eq(idempotencyKeys.userId, key.userId), eq(idempotencyKeys.requestId, key.requestId));
    if (reply.statusCode >= 500) {
      await db.delete(idempotencyKeys).where(where);
      return payload;
    }
    let body: unknown = null;
    if (typeof payload === 'string') {
      try {
        body = JSON.parse(payload);
      } catch {
        body = payload;
      }
    }
    await db.update(idempotencyKeys).set({ statusCode: reply.statusCode, body }).where(where);
    return payload;
  });
}
