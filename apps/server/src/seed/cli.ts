/** `npm run seed [-- --size large]`: migrate and seed the configured database (no-op when seeded). */
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { seedDemoData } from './index.ts';

const sizeArg = process.argv.indexOf('--size');
const config = loadConfig();
const size = sizeArg > -1 ? (process.argv[sizeArg + 1] as 'small' | 'large') : config.seedSize;
if (size !== 'small' && size !== 'large') {
  console.error("--size must be 'small' or 'large'");
  process.exit(1);
}
const database = await openDatabase(config);
await database.migrate();
const started = Date.now();
const result = await seedDemoData(database.db, { size });
console.log(
  result.seeded
    ? `Seeded ${size} demo data in ${((Date.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(result.counts)}`
    : 'Database already seeded; nothing to do.',
);
await database.close();
