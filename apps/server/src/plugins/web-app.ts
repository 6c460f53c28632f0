/**
 * Serves the built web app from the same origin as the API. Hashed assets are cached for a year;
 * index.html is never cached so a deploy is picked up on the next load. Any non-API GET that is not a
 * file answers index.html and the client router decides (including its own not-found page).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ROUTE_PRELOADS_FILE, type RoutePreloads, readRoutePreloads } from '@hcp/contract';
import type { FastifyInstance } from 'fastify';
import { apiNotFound, isApiPath } from './errors.ts';

/**
 * index.html naming a route's files (decision 0047): the browser fetches the shell's and the screen's code beside
 * the entry, not after the entry has run. Low priority, so the entry and its stylesheet still come first. The
 * stylesheets are preloaded, not applied: applied in the head they would hold back the first paint.
 */
export function withPreloads(html: string, files: RoutePreloads): string {
  const links = [
    ...files.scripts.map((href) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="${href}">`),
    ...files.styles.map((href) => `<link rel="preload" as="style" fetchpriority="low" crossorigin href="${href}">`),
  ];
  const named = html.replace('</head>', `${links.map((link) => `  ${link}\n`).join('')}</head>`);
  return withStarts(named, files.starts ?? []);
}

/**
 * The landing screens' head start (decision 0066): before the entry and asked for first, at high priority, because it
 * must arrive and run before the entry does to be of use (behind the entry it queued for a connection and lost the
 * race on a fast network). Async, so it never holds the page back.
 */
function withStarts(html: string, starts: readonly string[]): string {
  const first = html.indexOf('<script');
  if (starts.length === 0 || first < 0) return html;
  const tags = starts.map((src) => `<script async fetchpriority="high" src="${src}"></script>\n    `).join('');
  return `${html.slice(0, first)}${tags}${html.slice(first)}`;
}

/** Each landing route's page, built once at start from the build's table. */
function routePages(webDist: string): Map<string, string> {
  const pages = new Map<string, string>();
  const tableFile = path.join(webDist, ROUTE_PRELOADS_FILE);
  if (!existsSync(tableFile)) return pages;
  const html = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  // A file the build no longer has (a table left from another build) would be one more request for a 404.
  const present = (href: string) => existsSync(path.join(webDist, href));
  for (const [route, named] of readRoutePreloads(readFileSync(tableFile, 'utf8'))) {
    pages.set(
      route,
      withPreloads(html, {
        scripts: named.scripts.filter(present),
        styles: named.styles.filter(present),
        starts: (named.starts ?? []).filter(present),
      }),
    );
  }
  return pages;
}

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
    // The landing routes' own pages are routes of their own, so they go compressed like every other read
    // (plugins/compression.ts); '/rx-list/' is '/rx-list'.
    for (const [route, page] of routePages(webDist)) {
      for (const url of route === '/' ? [route] : [route, `${route}/`]) {
        app.get(url, (_request, reply) => reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page));
      }
    }
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
