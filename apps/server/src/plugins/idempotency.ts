/**
 * Idempotent writes (DESIGN §3): a signed-in write that carries a well-formed x-request-id is recorded
 * under (user, request id) before it runs; a repeat of it answers the stored first answer and changes
 * nothing. Routes opt in with `onRequest: app.requireAuth, preHandler: app.idempotent`.
 *
 * The key is claimed before the handler runs (insert … on conflict do nothing), so two copies of one
 * request racing each other cannot both act: the second sees "in progress" and gets 409. The write's own
 * transaction records the answer before it commits, so a crash between commit and reply cannot make a retry
 * act again. A 5xx answer with nothing written releases the key so the same request can be retried; any other
 * answer (200, 400, 404, 409) is kept. When the database is what failed, the release itself may fail: it is tried
 * again every RELEASE_RETRY_MS until the database answers (issue 45), so the client's retry of the same request
 * works again within a moment of the database's return instead of waiting for the abandon time. "Being processed"
 * answers say when to try again (Retry-After).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { API_HEADERS, isRequestId } from '@hcp/contract';
import { and, eq, lt, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { authOf } from './auth.ts';

export interface IdempotencyKey {
  userId: string;
  requestId: string;
  /** This claim's token: only its holder records the answer. */
  token: string;
  /** The answer of success on this route (201 for creations), recorded with the write. */
  successStatus: number;
  /** Set once the write's own transaction recorded its answer. */
  recorded: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: IdempotencyKey | null;
  }
  interface FastifyInstance {
    idempotent: (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => void;
  }
}

/** A claimed key whose holder never answered (its process was killed) is taken over after this long. */
export const ABANDONED_AFTER_SECONDS = 60;

/** How often a release that failed (the database was away) is tried again. */
export const RELEASE_RETRY_MS = 500;

const beingProcessed = () =>
  new AppError('CONFLICT', 'The same request is being processed. Try again in a moment.', [], { 'retry-after': '1' });

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
const IN_PROGRESS = 0;

/** The key of the request being handled, for the write transaction to record its answer in (see below). */
const currentKey = new AsyncLocalStorage<IdempotencyKey>();

export function registerIdempotency(app: FastifyInstance, db: Database, options: { abandonedAfterSeconds?: number } = {}): void {
  const abandonedAfter = options.abandonedAfterSeconds ?? ABANDONED_AFTER_SECONDS;
  app.decorateRequest('idempotencyKey', null);

  /** Claims the key (or replays the stored answer, or refuses a copy still in progress). */
  async function claim(request: FastifyRequest, reply: FastifyReply): Promise<IdempotencyKey | null> {
    const header = request.headers[API_HEADERS.requestId];
    if (!isRequestId(header)) return null;
    const { userId } = authOf(request);
    const responses = (request.routeOptions.schema?.response ?? {}) as Record<string, unknown>;
    const successStatus = '201' in responses && !('200' in responses) ? 201 : 200;
    const mine = (token: string): IdempotencyKey => ({ userId, requestId: header, token, successStatus, recorded: false });
    const where = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.requestId, header));
    const token = randomUUID();
    const claimed = await db
      .insert(idempotencyKeys)
      .values({
        userId,
        requestId: header,
        method: request.method,
        path: request.url,
        statusCode: IN_PROGRESS,
        body: null,
        claimToken: token,
      })
      .onConflictDoNothing()
      .returning({ requestId: idempotencyKeys.requestId });
    if (claimed.length === 1) return mine(token);

    const [stored] = await db.select().from(idempotencyKeys).where(where);
    if (!stored) throw beingProcessed();
    if (stored.method !== request.method || stored.path !== request.url) {
      throw new AppError('CONFLICT', 'This request id was already used for a different request.');
    }
    if (stored.statusCode === IN_PROGRESS) {
      // Its holder did not answer for a long time (killed): take the claim over with a new token. Had the holder
      // committed its write, the key would carry the answer (recorded in the write's transaction), so nothing
      // acts twice; should the holder still commit later, its token no longer matches and it rolls back.
      const takeover = randomUUID();
      const taken = await db
        .update(idempotencyKeys)
        .set({ createdAt: new Date(), claimToken: takeover })
        .where(
          and(
            where,
            eq(idempotencyKeys.statusCode, IN_PROGRESS),
            sql`${idempotencyKeys.createdAt} < now() - make_interval(secs => ${abandonedAfter})`,
          ),
        )
        .returning({ requestId: idempotencyKeys.requestId });
      if (taken.length === 1) return mine(takeover);
      throw beingProcessed();
    }
    request.log.info({ replayOf: header }, 'idempotent replay');
    await reply
      .code(stored.statusCode)
      .header(REPLAY_HEADER, 'true')
      .type('application/json; charset=utf-8')
      .send(JSON.stringify(stored.body));
    return null;
  }

  // Callback style, so the handler runs inside currentKey.run(): its write transaction finds the key.
  app.decorate('idempotent', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    claim(request, reply).then(
      (key) => {
        if (reply.sent) return;
        if (!key) return done();
        request.idempotencyKey = key;
        currentKey.run(key, () => done());
      },
      (error: Error) => done(error),
    );
  });

  /**
   * The answer is recorded inside the write's own transaction, just before it commits: a process killed
   * between the commit and the reply leaves a key that already says what happened, and the client's retry
   * gets that answer instead of acting twice. Only the claim's holder may record (its token still matches);
   * a holder whose claim was taken over rolls its write back.
   */
  const transaction = db.transaction.bind(db);
  db.transaction = ((work: (tx: Parameters<Parameters<Database['transaction']>[0]>[0]) => Promise<unknown>, config?: never) =>
    transaction(async (tx) => {
      const result = await work(tx);
      const key = currentKey.getStore();
      if (key && !key.recorded) {
        const recorded = await tx
          .update(idempotencyKeys)
          .set({ statusCode: key.successStatus, body: (result ?? null) as never })
          .where(
            and(
              eq(idempotencyKeys.userId, key.userId),
              eq(idempotencyKeys.requestId, key.requestId),
              eq(idempotencyKeys.claimToken, key.token),
              eq(idempotencyKeys.statusCode, IN_PROGRESS),
            ),
          )
          .returning({ requestId: idempotencyKeys.requestId });
        if (recorded.length === 0) {
          throw new AppError('CONFLICT', 'A retry of this request took it over; it was not carried out twice.');
        }
        key.recorded = true;
      }
      return result;
    }, config)) as Database['transaction'];

  /** Claims whose release failed, by their condition: tried again until the database answers. */
  const unreleased = new Set<SQL>();
  let retrying: NodeJS.Timeout | null = null;
  let closed = false;
  /** One statement for every pending release; what it could not release waits for the next round. */
  const retryReleases = async () => {
    const pending = [...unreleased];
    try {
      await db.delete(idempotencyKeys).where(or(...pending));
      for (const where of pending) unreleased.delete(where);
    } catch {
      // Still away: the next round tries again.
    }
    retrying = unreleased.size > 0 && !closed ? setTimeout(() => void retryReleases(), RELEASE_RETRY_MS).unref() : null;
  };
  async function release(where: SQL, request: FastifyRequest) {
    try {
      await db.delete(idempotencyKeys).where(where);
    } catch (error) {
      request.log.warn({ err: { message: (error as Error).message } }, 'idempotency key not released yet: trying again');
      unreleased.add(where);
      retrying ??= setTimeout(() => void retryReleases(), RELEASE_RETRY_MS).unref();
    }
  }
  app.addHook('onClose', async () => {
    closed = true;
    if (retrying) clearTimeout(retrying);
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (!key) return payload;
    request.idempotencyKey = null;
    const where = and(
      eq(idempotencyKeys.userId, key.userId),
      eq(idempotencyKeys.requestId, key.requestId),
      eq(idempotencyKeys.claimToken, key.token),
    );
    if (reply.statusCode >= 500) {
      // Nothing was written: the same request may be tried again. A write that committed keeps its recorded
      // success answer even if something after the commit failed.
      if (!key.recorded) await release(where as SQL, request);
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
