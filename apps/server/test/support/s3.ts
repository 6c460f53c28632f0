/** A local S3-compatible server (s3rver) with one bucket, for the S3 file store; S3_URL points at `<bucket>/<prefix>`. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

export interface LocalS3 {
  url: string;
  close: () => Promise<void>;
}

export async function startLocalS3(prefix = 'portal'): Promise<LocalS3> {
  const directory = await mkdtemp(path.join(os.tmpdir(), 'hcp-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: 'hcp', configs: [] }],
  });
  const { port } = await server.run();
  return {
    url: `http://S3RVER:S3RVER@127.0.0.1:${port}/hcp/${prefix}`,
    close: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
