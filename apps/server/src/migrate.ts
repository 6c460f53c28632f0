/**
 * `npm run migrate`: bring the database's schema up to date and exit, for a release step run once before new
 * instances start (the Kubernetes migration Job, docs/operations.md). Instances also migrate when they start, under
 * an advisory lock, so this is a no-op for them afterwards; running it first keeps a long migration out of the
 * readiness window.
 */
import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { describeStartupError } from './startup-errors.ts';

let config: ReturnType<typeof loadConfig> | undefined;
try {
  config = loadConfig();
  const database = await openDatabase(config);
  try {
    await database.migrate();
  } finally {
    await database.close();
  }
  console.log(`hcp-portal: the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} database’s schema is up to date.`);
} catch (error) {
  console.error(`hcp-portal: ${describeStartupError(error, config) ?? (error instanceof Error ? error.message : String(error))}`);
  process.exit(1);
}
