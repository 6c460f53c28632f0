import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './support/app.ts';

let dist: string;
let t: TestApp;

beforeAll(async () => {
  dist = await mkdtemp(path.join(os.tmpdir(), 'hcp-web-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>HCP Portal</title><div id="root"></div>');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(path.join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/app.tsx"]}');
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

describe('without a web build', () => {
  it('says how to build it', async () => {
    const bare = await buildTestApp({ template: 'empty' });
    const res = await bare.app.inject({ method: 'GET', url: '/login' });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
    await bare.close();
  });
});
