/**
 * API answers go compressed (issue 21): Action Needed's list is ~46 KB of JSON, a quarter of a second on a slow
 * phone network, ~6 KB compressed. Only reads (GET) are compressed:
 * - The answers that carry secrets (sign-in, session renewal, the SMART token endpoint, appeal tokens) are POSTs,
 *   and a compressed secret next to text the sender chose is what BREACH reads sizes for. Our reads are
 *   authorised by a bearer header a third-party page cannot attach, so they cannot be replayed by one.
 * - Request bodies are never inflated: a small compressed body must not become a large one behind the body limit.
 * Server-sent events are left as they are (the plugin skips text/event-stream), and so are the web app's files,
 * which the build precompresses (plugins/web-app.ts).
 */
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** Below this an answer fits in a packet or two either way; compressing it costs more than it saves. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

const isRead = (method: RouteOptions['method']) =>
  (Array.isArray(method) ? method : [method]).every((m) => m === 'GET' || m === 'HEAD');

export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the plugin's own onRoute hook (added below), so a write route reaches it already opted out.
  app.addHook('onRoute', (route) => {
    if (!isRead(route.method)) (route as RouteOptions & { compress?: false }).compress = false;
  });
  await app.register(fastifyCompress, {
    globalDecompression: false,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
  });
}
