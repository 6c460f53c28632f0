/** What every signed-in route of a patient-data feature needs from the request, and how it answers pre-built JSON. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { authOf } from '../plugins/auth.ts';
import { notFound } from './errors.ts';

export interface SignedInContext {
  userId: string;
  /** The session family of the request: what it derives (an undo, an appeal token) ends with it (issue 42). */
  familyId: string;
  requestId: string;
  ip: string | null;
}

/**
 * The signed-in user, the request id and the client address. When the path names a user, it must be the
 * signed-in one: another user's id answers 404, never 403, so ids cannot be probed (DESIGN §3).
 */
export function signedInContext(request: FastifyRequest, pathUserId?: string): SignedInContext {
  const { userId, familyId } = authOf(request);
  if (pathUserId !== undefined && pathUserId !== userId) throw notFound('User');
  return { userId, familyId, requestId: request.id, ip: request.ip ?? null };
}

/**
 * Sends JSON text PostgreSQL already built (json_agg) without parsing and re-serialising it; the route keeps
 * its response schema for the OpenAPI document and the tests check the shape.
 */
export function sendJsonText<T>(reply: FastifyReply, json: string) {
  return reply
    .type('application/json; charset=utf-8')
    .serializer((payload) => payload as string)
    .send(json as unknown as T);
}
