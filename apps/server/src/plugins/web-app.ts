/**
 * Serves the built web app from the same origin as the API. Hashed assets are cached for a year;
 * index.html is never cached so a deploy is picked up on the next load. Any non-API GET that is not a
 * file answers index.html and the client router decides (including its own not-found page).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { apiNotFound, isApiPath } from './errors.ts';

/** Written by the web build (apps/web/build/route-preloads.ts): per route, the files its first screen needs. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';
const ASSET_HREF = /^\/assets\/[\w.-]+\.(?:js|css)$/;

interface RoutePreloads {
  scripts: string[];
  styles: string[];
}

const isHrefList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((href) => typeof href === 'string' && ASSET_HREF.test(href));

/** The build's table, or nothing when it is missing or not what the build writes: the plain page serves then. */
export function readRoutePreloads(text: string): Map<string, RoutePreloads> {
  const table = new Map<string, RoutePreloads>();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return table;
  }
  if (typeof parsed !== 'object' || parsed === null) return table;
  for (const [route, files] of Object.entries(parsed)) {
    const { scripts, styles } = (files ?? {}) as Record<string, unknown>;
    if (route.startsWith('/') && isHrefList(scripts) && isHrefList(styles)) table.set(route, { scripts, styles });
  }
  return table;
}

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
  return html.replace('</head>', `${links.map((link) => `  ${link}\n`).join('')}</head>`);
}

interface Page {
  plain: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/** The encoding to send: brotli, then gzip, when the browser accepts it (a `q=0` refuses). */
export function pageEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | undefined {
  const accepted = new Set(
    (acceptEncoding ?? '')
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !/^\s*q\s*=\s*0(?:\.0*)?\s*$/.test(q ?? ''))
      .map(([name]) => (name ?? '').trim().toLowerCase()),
  );
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip')) return 'gzip';
  return undefined;
}

function sendPage(reply: FastifyReply, page: Page, acceptEncoding: string | undefined) {
  const encoding = pageEncoding(acceptEncoding);
  reply.header('cache-control', 'no-cache').header('vary', 'Accept-Encoding').type('text/html; charset=utf-8');
  if (encoding) reply.header('content-encoding', encoding);
  return reply.send(encoding === 'br' ? page.br : encoding === 'gzip' ? page.gzip : page.plain);
}

/** The route's own page, for the routes the build named files for; '/rx-list/' is '/rx-list'. */
function routeOf(url: string): string {
  const pathname = url.split('?')[0] ?? '/';
  return pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
}

function routePages(webDist: string): Map<string, Page> {
  const pages = new Map<string, Page>();
  const tableFile = path.join(webDist, ROUTE_PRELOADS_FILE);
  if (!existsSync(tableFile)) return pages;
  const html = readFileSync(path.join(webDist, 'index.html'), 'utf8');
  // A file the build no longer has (a table left from another build) would be one more request for a 404.
  const present = (href: string) => existsSync(path.join(webDist, href));
  for (const [route, named] of readRoutePreloads(readFileSync(tableFile, 'utf8'))) {
    const files = { scripts: named.scripts.filter(present), styles: named.styles.filter(present) };
    const plain = Buffer.from(withPreloads(html, files));
    pages.set(route, { plain, br: brotliCompressSync(plain), gzip: gzipSync(plain, { level: 9 }) });
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
  const pages = hasBuild ? routePages(webDist) : new Map<string, Page>();
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
    const page = pages.get(routeOf(request.url));
    if (page) return sendPage(reply, page, request.headers['accept-encoding']);
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
