/**
 * `npm run migrate-files`: moves attachments kept as files under DATA_DIR/uploads (before issue 24) into the file
 * store every instance shares — the database, or S3 when S3_URL is set. Run once per deployment after upgrading;
 * safe to run again. docs/operations.md.
 */
import { runWithDatabase } from './cli.ts';
import { diskUploadsDir, moveDiskAttachments } from './features/appeals/disk-attachments.ts';
import { createFileStore } from './lib/file-store/index.ts';
import { createOutboundGuard } from './lib/outbound/guard.ts';

await runWithDatabase(async (config, database) => {
  await database.migrate();
  const outbound = createOutboundGuard({ allowedNetworks: config.outboundAllowedNetworks });
  const store = createFileStore(config.fileStore, database.db, outbound.fetch);
  const result = await moveDiskAttachments({ db: database.db, store, dataDir: config.dataDir });
  return (
    `${result.moved} attachments moved from ${diskUploadsDir(config.dataDir)} to the ${store.kind} file store` +
    ` (${result.alreadyStored} were there already).` +
    (result.unreferenced > 0
      ? ` ${result.unreferenced} ${result.unreferenced === 1 ? 'file' : 'files'} no appeal refers to left in place.`
      : '')
  );
});
