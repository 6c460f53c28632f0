import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { count } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { MIGRATIONS_DIR, wrapPglite, wrapPool } from '../src/db/client.ts';
import * as s from '../src/db/schema.ts';

describe('migrations', () => {
  it('applying them again is a no-op', async () => {
    const handle = wrapPglite(new PGlite());
    try {
      await handle.migrate();
      await handle.db.insert(s.zipCodes).values({ zip: '43215', city: 'Columbus', state: 'OH' });
      await handle.migrate();
      expect(await handle.db.select({ n: count() }).from(s.zipCodes)).toEqual([{ n: 1 }]);
    } finally {
      await handle.close();
    }
  });

  // Only meaningful on PostgreSQL (several instances, one server); CI runs the server suite there too.
  it.runIf(inject('databaseUrl'))('two instances starting together on an empty PostgreSQL both succeed', async () => {
    const databaseUrl = inject('databaseUrl');
    const name = `hcp_test_migrate_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    await admin.query(`create database "${name}"`);
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    const a = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 2 }));
    const b = wrapPool(new pg.Pool({ connectionString: url.toString(), max: 2 }));
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      const check = new pg.Client({ connectionString: url.toString() });
      await check.connect();
      const { rows } = await check.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations');
      await check.end();
      // Each migration of the journal applied exactly once, though two instances ran them together.
      const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: unknown[] };
      expect(rows[0]?.n).toBe(journal.entries.length);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});

describe('PostgreSQL connection loss', () => {
  it.runIf(inject('databaseUrl'))('an idle connection killed by the server does not crash the process', async () => {
    const handle = wrapPool(
      new pg.Pool({ connectionString: inject('databaseUrl'), max: 1, application_name: `hcp-kill-${process.pid}` }),
    );
    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    try {
      await handle.ping();
      const warned = new Promise<string>((resolve) => process.once('warning', (w) => resolve(w.message)));
      await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [
        `hcp-kill-${process.pid}`,
      ]);
      expect(await warned).toMatch(/idle database connection lost/);
      await handle.ping();
    } finally {
      await admin.end();
      await handle.close();
    }
  });
});
