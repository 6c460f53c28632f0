import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { DataDirError } from '../src/db/client.ts';
import { describeStartupError } from '../src/startup-errors.ts';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ port: 3000, host: 'localhost', seedDemo: true, seedSize: 'small', databaseUrl: undefined });
    expect(config.dataDir).toBe(path.resolve('./data'));
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' })).toMatchObject({ port: 3000, databaseUrl: undefined });
  });

  it('reads values and flags', () => {
    const config = loadConfig({ PORT: '8080', SEED_DEMO: 'off', SEED_SIZE: 'large', DATABASE_URL: 'postgres://u@h/db' });
    expect(config).toMatchObject({ port: 8080, seedDemo: false, seedSize: 'large', databaseUrl: 'postgres://u@h/db' });
  });

  it('keeps attachments in the database unless S3_URL names a bucket', () => {
    expect(loadConfig({}).fileStore).toEqual({ kind: 'database' });
    expect(loadConfig({ S3_URL: 'https://AK:SK@s3.example.com/bucket' }).fileStore).toMatchObject({
      kind: 's3',
      location: { endpoint: 'https://s3.example.com', bucket: 'bucket', accessKeyId: 'AK', secretAccessKey: 'SK' },
    });
  });

  it('says what is wrong with S3_URL without repeating its secret', () => {
    expect(() => loadConfig({ S3_URL: 'https://AK:top-secret@s3.example.com/' })).toThrow(
      /^Invalid configuration: S3_URL must name the bucket/,
    );
    const message = (() => {
      try {
        loadConfig({ S3_URL: 'ftp://AK:top-secret@s3.example.com/b' });
        return 'accepted';
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toBe('Invalid configuration: S3_URL must start with https:// or http://');
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT .*\(got 'abc'\)$/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ SEED_DEMO: 'maybe' }, /^Invalid configuration: SEED_DEMO must be 'on' or 'off' \(got 'maybe'\)$/],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must start with postgres/],
    [{ REDIS_URL: 'http://x' }, /^Invalid configuration: REDIS_URL /],
    [{ SEED_SIZE: 'huge' }, /^Invalid configuration: SEED_SIZE /],
  ])('stops with one line naming the variable for %o', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain('\n');
    }
  });
});

describe('describeStartupError', () => {
  it('explains the failures a person can fix', () => {
    const config = loadConfig({ PORT: '3999' });
    expect(describeStartupError(Object.assign(new Error('x'), { code: 'EADDRINUSE' }), config)).toBe(
      'Port 3999 is already in use. Stop the other process or set PORT to a free port.',
    );
    expect(describeStartupError(new DataDirError('DATA_DIR x is not writable'), config)).toContain('DATA_DIR');
    expect(describeStartupError(new Error('other'), config)).toBeNull();
  });
});
