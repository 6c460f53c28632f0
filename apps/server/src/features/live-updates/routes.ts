/**
 * GET /api/mdo/v1/users/{userId}/live-updates (issue 20): a server-sent events stream telling the signed-in user's
 * open portal that their practices' items changed, so it refetches at once instead of at the next focus. Only an
 * `items` event with no patient data in it; the scope is the practices whose patients the user may see, read when
 * the stream opens. The stream ends when the access token does (the client reconnects with a fresh one), and within
 * `LIVE_SESSION_CHECK_MS` (2 s by default) of its session ending (issue 42: logout, account disabled, role or practice removed...): one
 * query per instance and round checks every open stream's session in the database.
 *
 * Every event has an id; a reconnecting client sends the last one it heard (`Last-Event-ID`) and is told `items`
 * with `resync: true` at once when it may have missed a change meanwhile (issue 45, decision 0053).
 */
import { selfParamsSchema } from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { practicesWithPatientAccess } from '../../lib/office-scope.ts';
import { signedInContext } from '../../lib/route-helpers.ts';
import { liveFamilies } from '../../lib/sessions.ts';
import { authOf } from '../../plugins/auth.ts';
import type { LiveHub } from './hub.ts';

const HEARTBEAT_MS = 25_000;

/** The id a reconnecting client last heard: a time in ms as the hub stamps it; anything else is no id. */
export function lastEventId(header: string | string[] | undefined): number | null {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}
export const liveUpdatesRoutes: FastifyPluginAsyncZod<{ db: Database; hub: LiveHub; sessionCheckMs: number }> = async (
  app,
  { db, hub, sessionCheckMs },
) => {
  /** Open streams by session family: each round ends those whose session has ended. */
  const open = new Map<string, Set<() => void>>();
  let round: NodeJS.Timeout | null = null;
  const checkSessions = async () => {
    const families = [...open.keys()];
    const live = await liveFamilies(db, families).catch((error: unknown) => {
      app.log.warn({ err: error }, 'live updates: the session check failed; streams stay open until the next round');
      return null;
    });
    if (!live) return;
    for (const family of families) if (!live.has(family)) for (const end of open.get(family) ?? []) end();
  };
  const watch = (familyId: string, end: () => void) => {
    const ends = open.get(familyId) ?? new Set();
    ends.add(end);
    open.set(familyId, ends);
    round ??= setInterval(() => void checkSessions(), sessionCheckMs);
    round.unref();
    return () => {
      ends.delete(end);
      if (ends.size === 0) open.delete(familyId);
      if (open.size === 0 && round) {
        clearInterval(round);
        round = null;
      }
    };
  };
  app.addHook('onClose', async () => {
    if (round) clearInterval(round);
  });

  app.get(
    '/api/mdo/v1/users/:userId/live-updates',
    {
      onRequest: app.requireAuth,
      schema: {
        tags: ['live-updates'],
        description:
          'Server-sent events (Accept: text/event-stream): `ready` once, then `items` when the items change. Each ' +
          'event has an id; send the last one heard as `Last-Event-ID` when reconnecting, and `items` with ' +
          '`resync: true` follows `ready` at once if a change may have been missed meanwhile.',
        params: selfParamsSchema,
      },
    },
    async (request, reply) => {
      const ctx = signedInContext(request, request.params.userId);
      if (!String(request.headers.accept ?? '').includes('text/event-stream')) {
        throw new AppError('NOT_ACCEPTABLE', 'This is an event stream: ask for text/event-stream.');
      }
      const offices = new Set(await practicesWithPatientAccess(db, ctx.userId));
      const claims = authOf(request);
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
        'x-request-id': request.id,
      });
      const send = (event: string, data: unknown, id: number) =>
        raw.write(`id: ${id}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
      const unsubscribe = await hub.subscribe({ offices, send, end: () => raw.end() });
      send('ready', { practices: offices.size }, hub.now());
      const heard = lastEventId(request.headers['last-event-id']);
      if (heard !== null && hub.mayHaveMissed(offices, heard)) send('items', { changed: true, resync: true }, hub.now());
      const heartbeat = setInterval(() => raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
      const expiry = setTimeout(() => raw.end(), Math.max(0, claims.expiresAt.getTime() - Date.now()));
      const unwatch = watch(claims.familyId, () => raw.end());
      const close = () => {
        clearInterval(heartbeat);
        clearTimeout(expiry);
        unwatch();
        unsubscribe();
      };
      raw.on('close', close);
    },
  );
};
