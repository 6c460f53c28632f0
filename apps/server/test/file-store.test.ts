/**
 * One contract for every file store (lib/file-store): the database store on this run's engine (PGlite, or
 * PostgreSQL under DATABASE_URL) and the S3 store against a local S3-compatible server (s3rver).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.ts';
import { CHUNK_BYTES, createDatabaseFileStore } from '../src/lib/file-store/database.ts';
import { type FileStore, parseS3Url } from '../src/lib/file-store/index.ts';
import { createS3FileStore, PART_BYTES } from '../src/lib/file-store/s3.ts';
import { createOutboundGuard, parseNetworks } from '../src/lib/outbound/guard.ts';
import { LOOPBACK_NETWORKS } from './support/app.ts';
import { createTestDatabase } from './support/database.ts';
import { type LocalS3, startLocalS3 } from './support/s3.ts';

async function readAll(stream: Readable): Promise<{ content: Buffer; pieces: number; largest: number }> {
  const pieces: Buffer[] = [];
  for await (const piece of stream) pieces.push(piece as Buffer);
  return { content: Buffer.concat(pieces), pieces: pieces.length, largest: Math.max(0, ...pieces.map((p) => p.length)) };
}

/** Content arriving in network-sized pieces, as a multipart upload gives it. */
async function* piecesOf(content: Buffer, size = 64 * 1024) {
  for (let i = 0; i < content.length; i += size) yield content.subarray(i, i + size);
}

async function* failingAfter(content: Buffer) {
  yield* piecesOf(content);
  throw new Error('the client went away');
}

async function keysOf(store: FileStore, before: Date): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of store.keysBefore(before)) keys.push(...page);
  return keys;
}

let database: DatabaseHandle;
let s3: LocalS3;
/** The local S3 listens on loopback: allowed through the outbound guard by name, as in the test app. */
const loopbackGuard = createOutboundGuard({ allowedNetworks: parseNetworks(LOOPBACK_NETWORKS) });
beforeAll(async () => {
  database = await createTestDatabase('empty');
  s3 = await startLocalS3();
});
afterAll(async () => {
  await database?.close();
  await s3?.close();
  await loopbackGuard.close();
});

const stores: [string, () => FileStore, number][] = [
  ['database', () => createDatabaseFileStore(database.db), CHUNK_BYTES],
  [
    's3',
    () => {
      const location = parseS3Url(s3.url);
      if (typeof location === 'string') throw new Error(location);
      return createS3FileStore(location, loopbackGuard.fetch);
    },
    PART_BYTES,
  ],
];

describe.each(stores)('%s file store', (_name, make, unit) => {
  it('gives back exactly what went in, across many pieces, streamed', async () => {
    const store = make();
    // More than one chunk/part and not a multiple of either, so the last piece is a short one.
    const content = randomBytes(unit * 2 + 12_345);
    const key = randomUUID();
    expect(await store.put(key, piecesOf(content))).toEqual({ sizeBytes: content.length });
    const stream = await store.get(key);
    expect(stream).toBeInstanceOf(Readable);
    const read = await readAll(stream as Readable);
    expect(read.content.equals(content)).toBe(true);
    // Streamed out: never the whole file in one piece.
    expect(read.pieces).toBeGreaterThan(1);
    expect(read.largest).toBeLessThan(content.length);
  });

  it('stores small and empty files', async () => {
    const store = make();
    const small = Buffer.from('%PDF-1.4 small');
    const [a, b] = [randomUUID(), randomUUID()];
    await store.put(a, piecesOf(small));
    await store.put(b, piecesOf(Buffer.alloc(0)));
    expect((await readAll((await store.get(a)) as Readable)).content.toString()).toBe('%PDF-1.4 small');
    expect((await readAll((await store.get(b)) as Readable)).content.length).toBe(0);
  });

  it('answers null for an unknown key and removes idempotently', async () => {
    const store = make();
    expect(await store.get(randomUUID())).toBeNull();
    const key = randomUUID();
    await store.put(key, piecesOf(Buffer.from('gone soon')));
    await store.remove(key);
    await store.remove(key);
    expect(await store.get(key)).toBeNull();
  });

  it('leaves nothing under the key when the content fails part way', async () => {
    const store = make();
    const key = randomUUID();
    await expect(store.put(key, failingAfter(randomBytes(unit + 1000)))).rejects.toThrow('the client went away');
    expect(await store.get(key)).toBeNull();
    expect(await keysOf(store, new Date(Date.now() + 60_000))).not.toContain(key);
  });

  it('lists keys stored before a moment, and only those', async () => {
    const store = make();
    const key = randomUUID();
    await store.put(key, piecesOf(Buffer.from('listed')));
    expect(await keysOf(store, new Date(Date.now() + 60_000))).toContain(key);
    expect(await keysOf(store, new Date(Date.now() - 60 * 60_000))).not.toContain(key);
  });

  it('keeps concurrent uploads apart', async () => {
    const store = make();
    const files = Array.from({ length: 4 }, () => ({ key: randomUUID(), content: randomBytes(unit + 777) }));
    await Promise.all(files.map((f) => store.put(f.key, piecesOf(f.content))));
    for (const f of files) expect((await readAll((await store.get(f.key)) as Readable)).content.equals(f.content)).toBe(true);
  });
});

describe('S3_URL', () => {
  it('reads endpoint, bucket, prefix, region and encoded credentials', () => {
    expect(parseS3Url('https://AK%2FID:se%2Bcret@s3.eu-west-1.amazonaws.com/my-bucket/portal/prod?region=eu-west-1')).toEqual({
      endpoint: 'https://s3.eu-west-1.amazonaws.com',
      bucket: 'my-bucket',
      prefix: 'portal/prod/',
      region: 'eu-west-1',
      accessKeyId: 'AK/ID',
      secretAccessKey: 'se+cret',
    });
    expect(parseS3Url('http://k:s@127.0.0.1:9000/b')).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      prefix: '',
      region: 'us-east-1',
    });
  });

  it('says what is wrong with an unusable one', () => {
    expect(parseS3Url('s3://k:s@host/b')).toMatch(/https:\/\//);
    expect(parseS3Url('https://host/b')).toMatch(/access key/);
    expect(parseS3Url('https://k:s@host/')).toMatch(/bucket/);
    expect(parseS3Url('not a url')).toMatch(/must be a URL/);
  });
});
