import { PGlite } from '@electric-sql/pglite';
import { count } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { wrapPglite, wrapPool } from '../src/db/client.ts';
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
      expect(rows[0]?.n).toBe(2);
    } finally {
      await a.close();
      await b.close();
      await admin.query(`drop database if exists "${name}" with (force)`);
      await admin.end();
    }
  });
});
