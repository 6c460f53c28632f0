/**
 * The database engine of this run for child-server suites: the embedded database in a fresh data folder, or a
 * fresh database on the PostgreSQL of DATABASE_URL; `query` reads it after the server stopped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { inject } from 'vitest';

export interface Engine {
  name: string;
  env: Record<string, string>;
  /** Runs SQL against the data after the server stopped (the data folder must open again). */
  query: <T>(text: string, params?: unknown[]) => Promise<T[]>;
  close: () => Promise<void>;
}

export async function prepareEngine(): Promise<Engine> {
  const databaseUrl = inject('databaseUrl');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'hcp-crash-'));
  if (!databaseUrl) {
    let client: PGlite | null = null;
    return {
      name: 'embedded (PGlite)',
      env: { DATA_DIR: dataDir },
      query: async <T>(text: string, params: unknown[] = []) => {
        client ??= new PGlite(path.join(dataDir, 'pglite'));
        return (await client.query<T>(text, params)).rows;
      },
      close: async () => {
        await client?.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  }
  const name = `hcp_crash_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  const pool = new pg.Pool({ connectionString: url.toString(), max: 2 });
  return {
    name: 'PostgreSQL',
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    query: async <T>(text: string, params: unknown[] = []) => (await pool.query(text, params)).rows as T[],
    close: async () => {
      await pool.end();
      const dropper = new pg.Client({ connectionString: databaseUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists "${name}" with (force)`);
      await dropper.end();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
