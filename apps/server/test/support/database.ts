/** A fresh database per test file, loaded from the run's template (see global-setup.ts). */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, wrapPglite, wrapPool } from '../../src/db/client.ts';
import { TEMPLATE_DBS, withTimeout } from './constants.ts';

export type Template = keyof typeof TEMPLATE_DBS;

export async function createTestDatabase(template: Template = 'demo'): Promise<DatabaseHandle> {
  const databaseUrl = inject('databaseUrl');
  if (databaseUrl) return withTimeout(clonePostgres(databaseUrl, template), 60_000, 'cloning PostgreSQL template');
  const dump = await readFile(path.join(inject('templateDir'), `${template}.tar`));
  return withTimeout(
    (async () => {
      const client = new PGlite({ loadDataDir: new Blob([dump]) });
      await client.waitReady;
      return wrapPglite(client);
    })(),
    60_000,
    'loading PGlite template',
  );
}

async function clonePostgres(databaseUrl: string, template: Template): Promise<DatabaseHandle> {
  const name = `hcp_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  // Cloning needs the template free of other sessions; retry briefly when another worker is cloning.
  for (let attempt = 0; ; attempt += 1) {
    try {
      await admin.query(`create database "${name}" template "${TEMPLATE_DBS[template]}"`);
      break;
    } catch (error) {
      if (attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 100 + attempt * 50));
    }
  }
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return wrapPool(new pg.Pool({ connectionString: url.toString(), max: 4 }), async () => {
    const dropper = new pg.Client({ connectionString: databaseUrl });
    await dropper.connect();
    await dropper.query(`drop database if exists "${name}" with (force)`);
    await dropper.end();
  });
}
