/** Process entry: config, migrate, seed when empty, listen, and shut down cleanly. */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { type Config, loadConfig } from './config.ts';
import { type DatabaseHandle, openDatabase } from './db/client.ts';
import { loadReferenceData } from './db/reference-data.ts';
import { diskAttachmentsLeft } from './features/appeals/disk-attachments.ts';
import { ensureDemoPharmacyClient } from './features/integrations/demo-client.ts';
import { listDemoAppealLinks, writeDemoAppealLinks } from './seed/demo-appeals.ts';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemoData } from './seed/index.ts';
import { describeStartupError } from './startup-errors.ts';

function fail(message: string): never {
  console.error(`hcp-portal: ${message}`);
  process.exit(1);
}

export async function start(): Promise<{ app: FastifyInstance; database: DatabaseHandle; config: Config }> {
  let config: Config | undefined;
  let database: DatabaseHandle | undefined;
  try {
    config = loadConfig();
    database = await openDatabase(config);
    await database.migrate();
    const reference = await loadReferenceData(database.db);
    if (reference.zipCodesLoaded > 0) console.log(`ZIP table loaded (${reference.zipCodesLoaded} ZIP codes).`);
    if (config.seedDemo) {
      const result = await seedDemoData(database.db, { size: config.seedSize });
      if (result.seeded) console.log(`Demo data loaded (${config.seedSize}).`);
    }
    const app = await buildApp(config, { database });
    const left = await diskAttachmentsLeft(config.dataDir);
    if (left > 0) {
      console.warn(
        `hcp-portal: ${left} files are still in ${config.dataDir}/uploads, where attachments were kept before the shared file store. ` +
          'Appeals cannot read them from there: run `npm run migrate-files` once.',
      );
    }
    await app.listen({ port: config.port, host: config.host });
    // Alive at once (/healthz); ready (/readyz) once connections are open and the routes warmed, in the background.
    void app.warmUp().then(
      (report) => app.log.info(report, 'warmed up: ready for traffic'),
      (error: unknown) => app.log.warn({ err: error }, 'warm-up failed: ready for traffic all the same'),
    );
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url =
      config.publicUrl ?? `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${port}`;
    console.log(
      `\nHCP Portal is running at ${url}  (database: ${database.kind === 'pglite' ? `embedded, ${config.dataDir}` : 'PostgreSQL'})`,
    );
    if (database.kind === 'pglite') {
      // What protects the data (README "Security and reliability"): tested against kill -9, not against power loss.
      console.log(
        'Embedded database: survives a killed process (tested with kill -9); a power cut or a full disk is not covered. Use PostgreSQL (DATABASE_URL) in production.',
      );
    }
    if (!config.publicUrl && url.includes('://localhost')) {
      // Browsers resolve *.localhost to this machine: the second brand's own hostname works as is.
      console.log(`Second brand (Harrow): ${url.replace('://localhost', '://harrow.localhost')}`);
    }
    if (config.seedDemo) {
      console.log(`Demo accounts (password for all: ${DEMO_PASSWORD}):`);
      for (const account of DEMO_ACCOUNTS) console.log(`  ${account.email.padEnd(26)} ${account.description}`);
      // What the pharmacy would send an external prescriber (no portal account needed); all of them in the file.
      const links = await listDemoAppealLinks(database.db);
      await writeDemoAppealLinks(config.dataDir, links).catch(() => undefined);
      const shown = [links.find((l) => l.variant === 'getCovered'), links.find((l) => l.variant === 'appeal')];
      if (links.length > 0) console.log(`Demo appeal links (more in ${config.dataDir}/demo-appeals.json):`);
      for (const link of shown) if (link) console.log(`  ${url}${link.path}`);
      const pharmacy = await ensureDemoPharmacyClient(database.db, config.dataDir).catch(() => null);
      if (pharmacy) {
        const dataDirOption = config.dataDir === path.resolve('data') ? '' : ` --data-dir ${config.dataDir}`;
        console.log(`Demo pharmacy system (FHIR R4 at ${url}/fhir/R4, client ${pharmacy.clientId}, key in ${pharmacy.file}):`);
        console.log(
          `  npm run pharmacy:simulate -- --url ${url}${dataDirOption}   (posts a morning's refills, PAs, substitutions, phone exceptions)`,
        );
      }
    }
    return { app, database, config };
  } catch (error) {
    await database?.close().catch(() => undefined);
    const message = describeStartupError(error, config);
    if (message) fail(message);
    throw error;
  }
}

function installShutdown(app: FastifyInstance, database: DatabaseHandle): void {
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    const force = setTimeout(() => {
      console.error('hcp-portal: shutdown took over 10 s; exiting.');
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      console.error('hcp-portal: error while shutting down', error);
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

const { app, database } = await start();
installShutdown(app, database);
