/** Builds the real app on a real test database; `close()` tears both down. */
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import type { DatabaseHandle } from '../../src/db/client.ts';
import type { Mail, MailTransport } from '../../src/lib/mailer.ts';
import { createTestDatabase, type Template } from './database.ts';

/** Loopback, IPv4 and IPv6: where every receiver a test starts listens. */
export const LOOPBACK_NETWORKS = '127.0.0.0/8,::1/128';

export interface TestApp {
  app: FastifyInstance;
  database: DatabaseHandle;
  config: Config;
  logs: Record<string, unknown>[];
  /** Mails the app delivered (MFA codes, reset links), newest last. */
  mail: Mail[];
  close(): Promise<void>;
}

export async function buildTestApp(
  options: {
    template?: Template;
    env?: Record<string, string>;
    database?: DatabaseHandle;
    /** 'default' lets the app pick its transport from the config (SMTP_URL); else mail is captured in `mail`. */
    mailTransport?: MailTransport | 'default';
    /** The business clock (today's date for postponed refills). */
    now?: () => Date;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(options.template ?? 'demo'));
  const config = loadConfig({
    LOG_LEVEL: 'info',
    WEB_DIST: '/nonexistent-web-dist',
    DATA_DIR: '/tmp/hcp-test-unused',
    AUTH_SIGNING_KEY: 'test-signing-key-0123456789abcdefghijklmnop',
    AUTH_RATE_LIMIT_PER_MINUTE: '1000',
    // No webhook worker unless a test asks: database snapshots of other suites must not move under them.
    WEBHOOK_POLL_MS: '0',
    DIGEST_POLL_SECONDS: '0',
    // Tests seal the audit trail by hand (app.auditChain.seal).
    AUDIT_SEAL_INTERVAL_SECONDS: '0',
    // Decisions go out at once unless a test asks for the undo window (undo.test.ts).
    UNDO_WINDOW_SECONDS: '0',
    // Ready at once: health.test.ts and the child servers check the warm-up itself.
    WARM_UP: 'off',
    // Tests' webhook receivers, key sets, fax gateways and object storage listen on loopback: allowed by name here,
    // as the demo does; outbound-guard.test.ts builds its app without it.
    OUTBOUND_ALLOWED_NETWORKS: LOOPBACK_NETWORKS,
    ...options.env,
  });
  const logs: Record<string, unknown>[] = [];
  const logStream = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const mail: Mail[] = [];
  const mailTransport = { name: 'test', send: async (m: Mail) => void mail.push(m) };
  const chosen = options.mailTransport === 'default' ? undefined : (options.mailTransport ?? mailTransport);
  const app = await buildApp(config, {
    database,
    logStream,
    ...(chosen ? { mailTransport: chosen } : {}),
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    app,
    database,
    config,
    logs,
    mail,
    close: async () => {
      await app.close();
      await database.close();
    },
  };
}
