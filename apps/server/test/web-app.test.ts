import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { readRoutePreloads } from '@hcp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withPreloads } from '../src/plugins/web-app.ts';
import { buildTestApp, type TestApp } from './support/app.ts';

// As the build writes it (apps/web/index.html): with its files named, a landing page comes to ~2 KB and goes compressed
// like any read.
const INDEX_HTML = [
  '<!doctype html>',
  '<html lang="en">',
  '  <head>',
  '    <meta charset="UTF-8" />',
  '    <meta name="viewport" content="width=device-width, initial-scale=1.0" />',
  '    <meta name="description" content="HCP Portal: act on prescriptions that need you." />',
  '    <link rel="icon" href="/favicon.svg" type="image/svg+xml" />',
  '    <title>HCP Portal</title>',
  '    <script type="module" crossorigin src="/assets/index-abc123.js"></script>',
  '    <link rel="stylesheet" crossorigin href="/assets/index-abc123.css">',
  '  </head>',
  '  <body>',
  '    <noscript>HCP Portal needs JavaScript to run.</noscript>',
  '    <!-- Painted before any script runs (on a slow phone the scripts take seconds); React replaces it. -->',
  '    <div id="root"><div class="boot-loader" role="status"><span class="boot-spinner" aria-hidden="true"></span><span>Loading…</span></div></div>',
  '  </body>',
  '</html>',
].join('\n');
// What the web build writes (apps/web/build/route-preloads.ts), with one entry the server must not trust.
const ROUTE_PRELOADS = {
  '/rx-list': {
    scripts: ['/assets/signed-in-aaa111.js', '/assets/rx-list-bbb222.js', '/assets/gone-ddd444.js'],
    styles: ['/assets/rx-list-ccc333.css'],
    starts: ['/assets/head-start-eee555.js', '/assets/head-start-gone.js'],
  },
  '/patient-search': { scripts: ['/assets/x.js"><script>alert(1)</script>'], styles: [] },
  // A head start must be a script of the build: a stylesheet or another address in its place drops the route.
  '/new-comments': { scripts: [], styles: [], starts: ['/assets/a.css'] },
  '/action-needed': { scripts: [], styles: [], starts: ['https://elsewhere.example/x.js'] },
};
const BIG_JS = `export const rows = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => ({ row: i, label: 'prescription' })))};`;
let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'hcp-web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), INDEX_HTML);
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/app.tsx"]}');
  // What the build's precompress step writes beside a large text file.
  await writeFile(path.join(dist, 'assets', 'big-def456.js'), BIG_JS);
  await writeFile(path.join(dist, 'assets', 'big-def456.js.br'), brotliCompressSync(BIG_JS));
  await writeFile(path.join(dist, 'assets', 'big-def456.js.gz'), gzipSync(BIG_JS));
  await writeFile(path.join(dist, 'index.html.br'), brotliCompressSync(INDEX_HTML));
  await writeFile(path.join(dist, 'index.html.gz'), gzipSync(INDEX_HTML));
  await writeFile(path.join(dist, 'route-preloads.json'), JSON.stringify(ROUTE_PRELOADS));
  for (const file of ['signed-in-aaa111.js', 'rx-list-bbb222.js', 'rx-list-ccc333.css', 'head-start-eee555.js']) {
    await writeFile(path.join(dist, 'assets', file), '/* built */');
  }
  t = await buildTestApp({ template: 'empty', env: { WEB_DIST: dist } });
});
afterAll(async () => {
  await t.close();
  await rm(dist, { recursive: true, force: true });
});

describe('serving the web app', () => {
  it.each(['/', '/login', '/action-needed', '/some/unknown/path'])('GET %s answers index.html, not cached', async (url) => {
    const res = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.body).toContain('<div id="root">');
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it('sends the brotli or gzip copy the browser accepts, with Vary: Accept-Encoding, and the plain file otherwise', async () => {
    const url = '/assets/big-def456.js';
    const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(BIG_JS);
    expect(br.rawPayload.length).toBeLessThan(BIG_JS.length / 4);
    const gz = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(BIG_JS);
    const plain = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(BIG_JS);
    // The app's page itself (any route) goes compressed too.
    const page = await t.app.inject({ method: 'GET', url: '/action-needed', headers: { 'accept-encoding': 'br' } });
    expect(page.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(page.rawPayload).toString()).toBe(INDEX_HTML);
  });

  it('never serves source maps (the build keeps them for error reports, not for the public)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('sources');
  });

  it('answers 404, not the app, for a missing file', async () => {
    for (const url of ['/assets/index-old999.js', '/robots.txt']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('<div id="root">');
    }
  });

  it('keeps API paths and non-GET requests as JSON 404s', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/mdo/v1/unknown' });
    expect(api.statusCode).toBe(404);
    expect(api.json().error.code).toBe('NOT_FOUND');
    const post = await t.app.inject({ method: 'POST', url: '/login', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('NOT_FOUND');
  });
});

describe('the first screens’ files named in the page (decision 0047)', () => {
  const links = (html: string) => [...html.matchAll(/<link rel="(?:modulepreload|preload)"[^>]+>/g)].map((m) => m[0]);

  it('names the shell’s and the screen’s files in the Rx list’s page, low priority, before the head ends (only files it has)', async () => {
    for (const url of ['/rx-list', '/rx-list/', '/rx-list?from=mail']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      const head = res.body.slice(0, res.body.indexOf('</head>'));
      expect(links(head), url).toEqual([
        '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/signed-in-aaa111.js">',
        '<link rel="modulepreload" fetchpriority="low" crossorigin href="/assets/rx-list-bbb222.js">',
        '<link rel="preload" as="style" fetchpriority="low" crossorigin href="/assets/rx-list-ccc333.css">',
      ]);
      // The head start (decision 0066): async, high priority, the page's first script; one the build lacks is left out.
      const scripts = [...head.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
      expect(scripts[0], url).toBe('<script async fetchpriority="high" src="/assets/head-start-eee555.js">');
      expect(scripts.filter((tag) => tag.includes('head-start'))).toHaveLength(1);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('names the head start only in a landing screen’s page: the sign-in page and the others run none', async () => {
    for (const url of ['/login', '/preferences', '/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(res.body, url).not.toContain('head-start');
    }
  });

  it('sends that page compressed as the browser accepts, with Vary: Accept-Encoding', async () => {
    const br = await t.app.inject({ method: 'GET', url: '/rx-list', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toContain('rx-list-bbb222.js');
    const gz = await t.app.inject({ method: 'GET', url: '/rx-list', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toContain('rx-list-bbb222.js');
  });

  it('leaves every other page as built: the sign-in page downloads no signed-in code', async () => {
    for (const url of ['/login', '/action-needed', '/rx-list/123']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(res.body, url).toBe(INDEX_HTML);
    }
  });

  it('names nothing the build would not write: an entry that is not an asset path is dropped', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/patient-search', headers: { 'accept-encoding': 'identity' } });
    expect(res.body).toBe(INDEX_HTML);
    expect(readRoutePreloads('not json').size).toBe(0);
    expect(readRoutePreloads('[1]').size).toBe(0);
    expect([...readRoutePreloads(JSON.stringify(ROUTE_PRELOADS)).keys()]).toEqual(['/rx-list']);
    for (const url of ['/new-comments', '/action-needed']) {
      const page = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'identity' } });
      expect(page.body, url).toBe(INDEX_HTML);
    }
    expect(withPreloads('<head></head>', { scripts: [], styles: [] })).toBe('<head></head>');
  });
});

describe('without a web build', () => {
  it('says how to build it', async () => {
    const bare = await buildTestApp({ template: 'empty' });
    const res = await bare.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await bare.close();
  });
});
