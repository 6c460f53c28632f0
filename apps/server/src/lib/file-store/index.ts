/**
 * Where attachments live (docs/decisions/0034-file-store.md): somewhere every instance reaches, never an
 * instance's own disk. The database by default (PostgreSQL or PGlite, in chunks), or S3-compatible object storage
 * when S3_URL is set. Both stream: content goes in and comes out piece by piece, so no instance holds a whole file
 * (the S3 side holds at most one multipart part, S3's own minimum). One contract test runs against both
 * (test/file-store.test.ts).
 *
 * Keys are opaque ids made by the caller (a random UUID per upload): a store never overwrites, so a replaced
 * attachment is a new key and the old one is removed once the new row is committed.
 */
import type { Database } from '../../db/client.ts';
import type { OutboundGuard } from '../outbound/guard.ts';
import { createDatabaseFileStore } from './database.ts';
import type { FileStore } from './file-store.ts';
import { createS3FileStore, type S3Location } from './s3.ts';

export type { FileStore } from './file-store.ts';

export type FileStoreConfig = { kind: 'database' } | { kind: 's3'; location: S3Location };

/** `fetchVia` is the outbound guard's fetch (object storage is called through the one door like every other call). */
export function createFileStore(config: FileStoreConfig, db: Database, fetchVia: OutboundGuard['fetch']): FileStore {
  return config.kind === 's3' ? createS3FileStore(config.location, fetchVia) : createDatabaseFileStore(db);
}

export { parseS3Url, type S3Location } from './s3.ts';
