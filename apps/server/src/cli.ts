/** The shape of the one-off commands (`npm run migrate`, `npm run migrate-files`): config, database, one task, a line. */
import { type Config, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { describeStartupError } from './startup-errors.ts';

/** Runs `task` on the configured database, prints its line, closes; on failure prints why and exits 1. */
export async function runWithDatabase(task: (config: Config, database: DatabaseHandle) => Promise<string>): Promise<void> {
  let config: Config | undefined;
  try {
    config = loadConfig();
    const database = await openDatabase(config);
    try {
      console.log(`hcp-portal: ${await task(config, database)}`);
    } finally {
      await database.close();
    }
  } catch (error) {
    console.error(
      `hcp-portal: ${describeStartupError(error, config) ?? (error instanceof Error ? error.message : String(error))}`,
    );
    process.exit(1);
  }
}
