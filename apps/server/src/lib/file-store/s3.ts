/**
 * S3-compatible object storage (AWS S3, MinIO, Ceph, R2 ...) when S3_URL is set: path-style requests signed with
 * SigV4 by aws4fetch (one small dependency on fetch rather than the whole AWS SDK). Objects live under
 * `<prefix>attachments/<key>`. S3 wants each part's length before it is sent, so a file goes up as one PUT when it
 * fits in a part and as a multipart upload otherwise: at most PART_BYTES (S3's minimum part size) are held.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { AwsClient } from 'aws4fetch';
import type { Response as GuardedResponse } from 'undici';
import type { OutboundGuard } from '../outbound/guard.ts';
import type { FileStore } from './file-store.ts';

export const PART_BYTES = 5 * 1024 * 1024;

export interface S3Location {
  /** Scheme, host and port, e.g. https://s3.eu-west-1.amazonaws.com */
  endpoint: string;
  bucket: string;
  /** Inside the bucket, '' or ending in '/'. */
  prefix: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
}

/**
 * S3_URL is `http(s)://ACCESS_KEY:SECRET@host[:port]/bucket[/prefix][?region=...]` (credentials URL-encoded).
 * Answers the reason as a string when it is not usable, so configuration can say what is wrong.
 */
export function parseS3Url(value: string): S3Location | string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'must be a URL such as https://KEY:SECRET@s3.example.com/bucket';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must start with https:// or http://';
  if (!url.username || !url.password) return 'must carry the access key and secret as KEY:SECRET@';
  const [bucket, ...rest] = url.pathname.split('/').filter(Boolean);
  if (!bucket) return 'must name the bucket as the first part of the path';
  return {
    endpoint: `${url.protocol}//${url.host}`,
    bucket,
    prefix: rest.length > 0 ? `${rest.join('/')}/` : '',
    region: url.searchParams.get('region') ?? 'us-east-1',
    accessKeyId: decodeURIComponent(url.username),
    secretAccessKey: decodeURIComponent(url.password),
  };
}

/** S3 answers errors as XML with a Code; that (never the key) goes into our error. */
async function s3Error(what: string, response: GuardedResponse): Promise<Error> {
  const body = await response.text().catch(() => '');
  const code = /<Code>([^<]+)<\/Code>/.exec(body)?.[1] ?? 'no code';
  return new Error(`Object storage refused ${what}: HTTP ${response.status} (${code}).`);
}

const xmlText = (value: string) =>
  value
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Each call to object storage: a 5 MiB part is well inside it on any working link. */
export const S3_CALL_TIMEOUT_MS = 60_000;

/** Object storage is called through the outbound guard like every other call (lib/outbound/guard.ts). */
export function createS3FileStore(location: S3Location, fetchVia: OutboundGuard['fetch']): FileStore {
  const client = new AwsClient({
    accessKeyId: location.accessKeyId,
    secretAccessKey: location.secretAccessKey,
    service: 's3',
    region: location.region,
  });
  const bucketUrl = `${location.endpoint}/${encodeURIComponent(location.bucket)}`;
  const folder = `${location.prefix}attachments/`;
  const objectUrl = (key: string) => `${bucketUrl}/${folder}${encodeURIComponent(key)}`;

  /**
   * Signed by aws4fetch, sent through `fetchVia` with the same body (the signature covers its hash). The time limit
   * runs until the answer's headers: a download then streams at the pace of whoever reads it.
   */
  const call = async (url: string, init: RequestInit) => {
    const signed = await client.sign(url, init);
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('Object storage did not answer in time.', 'TimeoutError')),
      S3_CALL_TIMEOUT_MS,
    );
    try {
      return await fetchVia(signed.url, {
        method: signed.method,
        headers: Object.fromEntries(signed.headers),
        ...(init.body === undefined || init.body === null ? {} : { body: init.body as string | Buffer }),
        signal: controller.signal,
      });
    } finally {
      clearTimeout(timer);
    }
  };
  const send = async (what: string, url: string, init: RequestInit = {}, okStatuses: number[] = []) => {
    const response = await call(url, init);
    if (!response.ok && !okStatuses.includes(response.status)) throw await s3Error(what, response);
    return response;
  };

  const multipart = {
    async start(key: string) {
      const xml = await (await send('starting an upload', `${objectUrl(key)}?uploads`, { method: 'POST' })).text();
      const id = /<UploadId>([^<]+)<\/UploadId>/.exec(xml)?.[1];
      if (!id) throw new Error('Object storage did not answer an upload id.');
      return { id: xmlText(id), etags: [] as string[] };
    },
    async part(key: string, upload: { id: string; etags: string[] }, body: Buffer) {
      const number = upload.etags.length + 1;
      const url = `${objectUrl(key)}?partNumber=${number}&uploadId=${encodeURIComponent(upload.id)}`;
      const response = await send('a part', url, { method: 'PUT', body });
      upload.etags.push(response.headers.get('etag') ?? '');
    },
    async complete(key: string, upload: { id: string; etags: string[] }) {
      const parts = upload.etags.map((etag, i) => `<Part><PartNumber>${i + 1}</PartNumber><ETag>${etag}</ETag></Part>`);
      const body = `<CompleteMultipartUpload>${parts.join('')}</CompleteMultipartUpload>`;
      const url = `${objectUrl(key)}?uploadId=${encodeURIComponent(upload.id)}`;
      const xml = await (await send('completing an upload', url, { method: 'POST', body })).text();
      // S3 may answer 200 with an error inside when completing fails late.
      if (xml.includes('<Error>')) throw new Error('Object storage could not complete the upload.');
    },
    async abort(key: string, upload: { id: string }) {
      await call(`${objectUrl(key)}?uploadId=${encodeURIComponent(upload.id)}`, { method: 'DELETE' });
    },
  };

  return {
    kind: 's3',

    async put(key, content) {
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      let size = 0;
      let upload: { id: string; etags: string[] } | null = null;
      try {
        for await (const piece of content) {
          pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
          pendingBytes += piece.byteLength;
          size += piece.byteLength;
          if (pendingBytes >= PART_BYTES) {
            upload ??= await multipart.start(key);
            await multipart.part(key, upload, Buffer.concat(pending, pendingBytes));
            pending = [];
            pendingBytes = 0;
          }
        }
        const rest = Buffer.concat(pending, pendingBytes);
        if (!upload) {
          await send('storing a file', objectUrl(key), {
            method: 'PUT',
            body: rest,
            headers: { 'content-type': 'application/octet-stream' },
          });
        } else {
          if (rest.length > 0) await multipart.part(key, upload, rest);
          await multipart.complete(key, upload);
        }
        return { sizeBytes: size };
      } catch (error) {
        if (upload) await multipart.abort(key, upload).catch(() => undefined);
        throw error;
      }
    },

    async get(key) {
      const response = await send('reading a file', objectUrl(key), {}, [404]);
      if (response.status === 404 || !response.body) {
        await response.body?.cancel();
        return null;
      }
      return Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
    },

    async remove(key) {
      await send('removing a file', objectUrl(key), { method: 'DELETE' }, [404]);
    },

    async *keysBefore(before) {
      let token: string | null = null;
      do {
        const query = new URLSearchParams({ 'list-type': '2', prefix: folder });
        if (token) query.set('continuation-token', token);
        const xml = await (await send('listing files', `${bucketUrl}?${query}`)).text();
        const page: string[] = [];
        for (const [, entry] of xml.matchAll(/<Contents>([\s\S]*?)<\/Contents>/g)) {
          const key = xmlText(/<Key>([^<]*)<\/Key>/.exec(entry ?? '')?.[1] ?? '');
          const modified = new Date(/<LastModified>([^<]*)<\/LastModified>/.exec(entry ?? '')?.[1] ?? 0);
          if (key.startsWith(folder) && modified < before) page.push(key.slice(folder.length));
        }
        if (page.length > 0) yield page;
        const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
        token = xml.includes('<IsTruncated>true</IsTruncated>') && next ? xmlText(next) : null;
      } while (token);
    },
  };
}
