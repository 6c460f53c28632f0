/**
 * Attachments from before the file store (issue 24) were files under DATA_DIR/uploads named by their stored name.
 * `npm run migrate-files` moves each one an appeal still refers to into the configured store and removes it from
 * disk once the store holds all of it; files no appeal refers to are left where they are and counted. Safe to run
 * again (and after an interruption): what is already in the store is not copied twice.
 */
import { createReadStream } from 'node:fs';
import { readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../../db/client.ts';
import type { FileStore } from '../../lib/file-store/index.ts';
import * as repo from './repository.ts';

export const diskUploadsDir = (dataDir: string) => path.join(dataDir, 'uploads');

/** How many files are still in the old upload folder (0 when it is gone). */
export async function diskAttachmentsLeft(dataDir: string): Promise<number> {
  const names = await readdir(diskUploadsDir(dataDir)).catch(() => [] as string[]);
  return names.length;
}

export async function moveDiskAttachments(deps: { db: Database; store: FileStore; dataDir: string }) {
  const dir = diskUploadsDir(deps.dataDir);
  const names = await readdir(dir).catch(() => [] as string[]);
  const result = { moved: 0, alreadyStored: 0, unreferenced: 0 };
  for (let i = 0; i < names.length; i += 500) {
    const batch = names.slice(i, i + 500);
    const referenced = await repo.referencedNames(deps.db, batch);
    for (const name of batch) {
      const file = path.join(dir, name);
      const info = await stat(file).catch(() => null);
      if (!info?.isFile()) continue;
      if (!referenced.has(name)) {
        result.unreferenced += 1;
        continue;
      }
      const existing = await deps.store.get(name);
      if (existing) {
        existing.destroy();
        result.alreadyStored += 1;
      } else {
        const { sizeBytes } = await deps.store.put(name, createReadStream(file));
        if (sizeBytes !== info.size) {
          await deps.store.remove(name);
          throw new Error(`An attachment changed size while it was being moved (${name}); nothing was removed from disk.`);
        }
        result.moved += 1;
      }
      await unlink(file);
    }
  }
  return result;
}
