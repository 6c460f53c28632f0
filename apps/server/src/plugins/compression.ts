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

/**
 * Answers up to this size are compressed in one synchronous call rather than through a stream (issue 45, part 6).
 * The plugin's default on two cores is 8 KiB, so a busy practice's Action Needed list (260 items, ~224 KB) went
 * through a Brotli stream: about 2-3 ms of chunking, thread-pool hops and chunked writes a request, where one call
 * takes ~1 ms and sends a Content-Length. Measured in `npm run bench` (large-list compression); at 1 MiB the longest
 * call blocks the event loop ~5 ms, and anything larger still streams.
 */
export const COMPRESS_SYNC_MAX_BYTES = 1024 * 1024;

export const COMPRESSION_OPTIONS = {
  globalDecompression: false,
  threshold: COMPRESS_THRESHOLD_BYTES,
  encodings: ['br', 'gzip'] as ('br' | 'gzip')[],
  syncThreshold: COMPRESS_SYNC_MAX_BYTES,
};

const isRead = (method: RouteOptions['method']) =>
  (Array.isArray(method) ? method : [method]).every((m) => m === 'GET' || m === 'HEAD');

export async function registerCompression(app: FastifyInstance, options = COMPRESSION_OPTIONS): Promise<void> {
  // Runs before the plugin's own onRoute hook (added below), so a write route reaches it already opted out.
  app.addHook('onRoute', (route) => {
    if (!isRead(route.method)) (route as RouteOptions & { compress?: false }).compress = false;
  });
  await app.register(fastifyCompress, options);
}
