/**
 * Serves the built web app from the same origin as the API. Hashed assets are cached for a year;
 * index.html is never cached so a deploy is picked up on the next load. Any non-API GET that is not a
 * file answers index.html and the client router decides (including its own not-found page).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { apiNotFound, isApiPath } from './errors.ts';

/** '/assets/index-abc.js' or '/favicon.svg' name a file; '/patients/123' is an app route. */
export function looksLikeFile(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  return pathname.startsWith('/assets/') || /\.[a-z0-9]{1,8}$/i.test(pathname.split('/').pop() ?? '');
}

export async function registerWebApp(app: FastifyInstance, webDist: string): Promise<void> {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file; the one the browser accepts goes out, with
      // Vary: Accept-Encoding so caches keep them apart (issue 21).
      preCompressed: true,
      // The build writes source maps (hidden) for error reports; they map the code back to its sources and
      // are not for the public (issue 21).
      allowedPath: (pathName) => !pathName.endsWith('.map'),
      setHeaders: (res, filePath) => {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // wildcard:false registers only the files present at start; assets are content-hashed anyway.
  }

  app.setNotFoundHandler((request, reply) => {
    if (isApiPath(request.url) || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return apiNotFound(reply);
    }
    // A missing file (e.g. an asset of an older or newer build) is a 404, never the app's HTML in its place.
    if (looksLikeFile(request.url)) {
      return reply.status(404).type('text/plain; charset=utf-8').header('cache-control', 'no-cache').send('Not found');
    }
    if (!hasBuild) {
      return reply
        .status(503)
        .type('text/plain; charset=utf-8')
        .send('The web app is not built yet. Run `npm run build` (or `npm start`, which builds it).');
    }
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
