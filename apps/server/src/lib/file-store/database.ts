/**
 * The default file store: attachments in the database every instance already shares, in chunks of CHUNK_BYTES.
 * Each chunk is its own statement, not one long transaction: a slow upload must not hold a pooled connection (or,
 * on PGlite, the only one) for its whole length. The object counts only once `complete` is set after its last
 * chunk; until then reads answer nothing, and a crash leaves an incomplete object for the orphan sweep.
 */
import { Readable } from 'node:stream';
import { and, asc, eq, gt, lt } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { storedFileChunks, storedFiles } from '../../db/schema.ts';
import type { FileStore } from './file-store.ts';

export const CHUNK_BYTES = 256 * 1024;
const PAGE = 500;

export function createDatabaseFileStore(db: Database): FileStore {
  const removeKey = async (key: string) => {
    // The chunks go with their object (ON DELETE CASCADE).
    await db.delete(storedFiles).where(eq(storedFiles.key, key));
  };

  return {
    kind: 'database',

    async put(key, content) {
      await db.insert(storedFiles).values({ key });
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let seq = 0;
      let size = 0;
      const flush = async () => {
        const data = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        await db.insert(storedFileChunks).values({ key, seq, data });
        seq += 1;
      };
      try {
        for await (const piece of content) {
          let rest = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
          size += rest.length;
          while (pendingBytes + rest.length >= CHUNK_BYTES) {
            const take = CHUNK_BYTES - pendingBytes;
            pending.push(rest.subarray(0, take));
            pendingBytes += take;
            rest = rest.subarray(take);
            await flush();
          }
          if (rest.length > 0) {
            pending.push(rest);
            pendingBytes += rest.length;
          }
        }
        if (pendingBytes > 0) await flush();
        await db.update(storedFiles).set({ sizeBytes: size, chunks: seq, complete: true }).where(eq(storedFiles.key, key));
        return { sizeBytes: size };
      } catch (error) {
        await removeKey(key).catch(() => undefined);
        throw error;
      }
    },

    async get(key) {
      const [head] = await db
        .select({ chunks: storedFiles.chunks })
        .from(storedFiles)
        .where(and(eq(storedFiles.key, key), eq(storedFiles.complete, true)));
      if (!head) return null;
      const { chunks } = head;
      // One chunk per query, read when the response asks for more.
      return Readable.from(
        (async function* () {
          for (let seq = 0; seq < chunks; seq += 1) {
            const [row] = await db
              .select({ data: storedFileChunks.data })
              .from(storedFileChunks)
              .where(and(eq(storedFileChunks.key, key), eq(storedFileChunks.seq, seq)));
            if (!row) throw new Error('A stored file lost a chunk while it was being read.');
            yield row.data;
          }
        })(),
        { objectMode: false },
      );
    },

    remove: removeKey,

    async *keysBefore(before) {
      let after = '';
      for (;;) {
        const rows = await db
          .select({ key: storedFiles.key })
          .from(storedFiles)
          .where(and(lt(storedFiles.createdAt, before), gt(storedFiles.key, after)))
          .orderBy(asc(storedFiles.key))
          .limit(PAGE);
        if (rows.length === 0) return;
        const page = rows.map((r) => r.key);
        yield page;
        if (rows.length < PAGE) return;
        after = page[page.length - 1] as string;
      }
    },
  };
}
