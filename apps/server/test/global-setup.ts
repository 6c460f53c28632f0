/**
 * Builds the test database templates once per run: 'empty' (migrated) and 'demo' (migrated + the small
 * seed at a fixed clock). PGlite: dumped data dirs that each test file loads. PostgreSQL (DATABASE_URL):
 * template databases that each test file clones with CREATE DATABASE ... TEMPLATE.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { wrapPglite, wrapPool } from '../src/db/client.ts';
import { loadReferenceData } from '../src/db/reference-data.ts';
import { seedDemoData } from '../src/seed/index.ts';
import { TEMPLATE_DBS, TEST_NOW, withTimeout } from './support/constants.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDir: string;
    databaseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const databaseUrl = process.env.DATABASE_URL ?? '';
  let templateDir = '';
  if (databaseUrl) {
    await withTimeout(buildPostgresTemplates(databaseUrl), 120_000, 'building PostgreSQL templates');
  } else {
    templateDir = await mkdtemp(path.join(os.tmpdir(), 'hcp-test-templates-'));
    await withTimeout(buildPgliteTemplates(templateDir), 120_000, 'building PGlite templates');
  }
  project.provide('templateDir', templateDir);
  project.provide('databaseUrl', databaseUrl);
  return async () => {
    if (templateDir) await rm(templateDir, { recursive: true, force: true });
  };
}

async function buildPgliteTemplates(dir: string) {
  const client = new PGlite();
  const handle = wrapPglite(client);
  await handle.migrate();
  await loadReferenceData(handle.db);
  // Uncompressed (issue 44): every test file loads one, and a 64 MB tar loads in ~0.75 s where the 7.5 MB gzip took
  // ~1.3 s (the gunzip); the disk is the machine's temp folder, for the run only.
  await writeFile(path.join(dir, 'empty.tar'), Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await seedDemoData(handle.db, { size: 'small', now: TEST_NOW });
  await writeFile(path.join(dir, 'demo.tar'), Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer()));
  await client.close();
}

async function buildPostgresTemplates(databaseUrl: string) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    for (const name of Object.values(TEMPLATE_DBS)) {
      await admin.query(`update pg_database set datistemplate = false where datname = '${name}'`);
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.query(`create database "${name}"`);
      const url = new URL(databaseUrl);
      url.pathname = `/${name}`;
      const handle = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 2 }));
      await handle.migrate();
      await loadReferenceData(handle.db);
      if (name === TEMPLATE_DBS.demo) await seedDemoData(handle.db, { size: 'small', now: TEST_NOW });
      await handle.close();
      await admin.query(`update pg_database set datistemplate = true where datname = '${name}'`);
    }
  } finally {
    await admin.end();
  }
}
