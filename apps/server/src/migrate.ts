/**
 * `npm run migrate`: bring the database's schema up to date and exit, for a release step run once before new
 * instances start (the Kubernetes migration Job, docs/operations.md). Instances also migrate when they start, under
 * an advisory lock, so this is a no-op for them afterwards; running it first keeps a long migration out of the
 * readiness window.
 */
import { runWithDatabase } from './cli.ts';

await runWithDatabase(async (config, database) => {
  await database.migrate();
  return `the ${config.databaseUrl ? 'PostgreSQL' : 'embedded'} database’s schema is up to date.`;
});
