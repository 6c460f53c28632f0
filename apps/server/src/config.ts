/** Environment parsed once (DESIGN §1). A bad value stops start-up with one line naming the variable. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DIGEST_INTERVAL_MINUTES, isProduction, UNDO_WINDOW_SECONDS, WEBHOOK_RETRY } from '@hcp/contract';
import { z } from 'zod';
import type { FileStoreConfig } from './lib/file-store/index.ts';
import { parseS3Url } from './lib/file-store/s3.ts';
import { parseOtlpHeaders } from './lib/otlp-headers.ts';
import { parseNetworks } from './lib/outbound/guard.ts';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const flag = z
  .enum(['on', 'off', 'true', 'false', '1', '0', 'yes', 'no'], { message: "must be 'on' or 'off'" })
  .transform((v) => ['on', 'true', '1', 'yes'].includes(v));

const envSchema = z.object({
  PORT: z.coerce.number({ message: 'must be a number' }).int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('localhost'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must start with postgres:// or postgresql://' })
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, { message: 'must start with postgres:// or postgresql://' })
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, { message: 'must start with redis:// or rediss://' })
    .optional(),
  SEED_DEMO: flag.default(true),
  SEED_SIZE: z.enum(['small', 'large'], { message: "must be 'small' or 'large'" }).default('small'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  APP_ENV: z.string().min(1).default('development'),
  WEB_DIST: z.string().min(1).default(path.join(REPO_ROOT, 'apps/web/dist')),
  PUBLIC_URL: z.string().url({ message: 'must be a URL such as https://portal.example.com' }).optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  TRUST_PROXY: flag.default(false),
  AUTH_SIGNING_KEY: z.string().min(32, { message: 'must be at least 32 characters' }).optional(),
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(900),
  REFRESH_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(2_592_000).default(43_200),
  DEV_MAIL_LOG: flag.default(true),
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(20),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, { message: 'must start with smtp:// or smtps://' })
    .optional(),
  MAIL_FROM: z.string().min(3).default('HCP Portal <no-reply@hcp-portal.local>'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  HOUSEKEEPING_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(3600),
  /** How long an earlier version of a pharmacy's FHIR resource stays readable (`_history/[vid]`). */
  FHIR_VERSION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  /** Audit trail (issue 49, decision 0061): six years by default (HIPAA 164.316(b)(2)), then purged by housekeeping. */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(2192),
  /** How often the audit trail is sealed (0: never), and how old a row must be before it is. */
  AUDIT_SEAL_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  AUDIT_SEAL_MARGIN_SECONDS: z.coerce.number().int().min(0).max(3600).default(120),
  /** The time zone of the audit reports' days and of the working hours the unusual-access rule reads. */
  AUDIT_TIME_ZONE: z
    .string()
    .refine(
      (zone) => {
        try {
          new Intl.DateTimeFormat('en-US', { timeZone: zone });
          return true;
        } catch {
          return false;
        }
      },
      { message: 'must be an IANA time zone such as America/New_York' },
    )
    .default('America/New_York'),
  IDEMPOTENCY_ABANDON_SECONDS: z.coerce.number().int().min(1).max(86_400).default(60),
  GOOGLE_JWKS_URL: z.string().url({ message: 'must be a URL' }).default('https://www.googleapis.com/oauth2/v3/certs'),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(WEBHOOK_RETRY.baseMs),
  WEBHOOK_RETRY_CAP_MS: z.coerce.number().int().min(1).default(WEBHOOK_RETRY.capMs),
  WEBHOOK_GIVE_UP_MS: z.coerce.number().int().min(1).default(WEBHOOK_RETRY.giveUpMs),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(WEBHOOK_RETRY.timeoutMs),
  WEBHOOK_ALLOW_HTTP: flag.optional(),
  DIGEST_POLL_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  DIGEST_INTERVAL_MINUTES: z.coerce.number().int().min(1).max(1440).default(DIGEST_INTERVAL_MINUTES),
  FAX_GATEWAY_URL: z.string().url({ message: 'must be a URL such as https://fax.example.com/v1/faxes' }).optional(),
  FAX_GATEWAY_KEY: z.string().min(8, { message: 'must be at least 8 characters' }).optional(),
  UNDO_WINDOW_SECONDS: z.coerce.number().int().min(0).max(300).default(UNDO_WINDOW_SECONDS),
  LIVE_SESSION_CHECK_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  /** /readyz waits for the warm-up (lib/warm-up.ts); off: ready as soon as the database answers. */
  WARM_UP: flag.optional(),
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(120_000),
  METRICS_TOKEN: z.string().min(16, { message: 'must be at least 16 characters' }).optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url({ message: 'must be a URL such as http://otel-collector:4318' }).optional(),
  OTEL_EXPORTER_OTLP_HEADERS: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('hcp-portal'),
  /** Read by fileStoreOf (its errors never repeat the value: it carries a secret). */
  S3_URL: z.string().optional(),
  /**
   * Internal networks the server may call after all (lib/outbound/guard.ts): tests' and the demo's receivers on
   * loopback, an operator's fax gateway or object storage on its own network. Empty: none, in every environment.
   */
  OUTBOUND_ALLOWED_NETWORKS: z
    .string()
    .default('')
    .superRefine((value, ctx) => {
      try {
        parseNetworks(value);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: `has ${(error as Error).message}` });
      }
    }),
});

/** Every variable the server reads: deployment files may set only these (test/deploy-files.test.ts). */
export const CONFIG_ENV_NAMES: readonly string[] = Object.keys(envSchema.shape);

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** A read replica of DATABASE_URL for list reads (lib/read-routing.ts). */
  databaseReadUrl: string | undefined;
  redisUrl: string | undefined;
  seedDemo: boolean;
  seedSize: 'small' | 'large';
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  appEnv: string;
  webDist: string;
  publicUrl: string | undefined;
  bodyLimitBytes: number;
  trustProxy: boolean;
  /** HS256 key shared by every instance; generated into DATA_DIR when unset (single-instance dev). */
  authSigningKey: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Without SMTP, mails (MFA codes, reset links) go to the outbox, the log and DATA_DIR/dev-mail.jsonl. */
  devMailLog: boolean;
  /** Sign-in calls (login, MFA) allowed per client IP per minute; refresh and logout get six times as many. */
  authRateLimitPerMinute: number;
  /** Real mail delivery (nodemailer); without it the dev transport is used. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Google sign-in is offered only when a client id is configured (it is also the token audience). */
  googleClientId: string | undefined;
  /** Keys that sign Google ID tokens; tests point it at their own key set. */
  googleJwksUrl: string;
  /** How often expired sign-in rows are purged; 0 turns the purge off. */
  housekeepingIntervalSeconds: number;
  fhirVersionDays: number;
  audit: { retentionDays: number; sealIntervalSeconds: number; sealMarginSeconds: number; timeZone: string };
  /** How long an unanswered claim of a request id blocks its retries (its holder was killed). */
  idempotencyAbandonSeconds: number;
  /** Outbound webhooks (issue 20): how often a worker looks for due deliveries (0: no worker in this process),
   * the retry schedule, and whether plain-http endpoints are allowed (not in production). */
  webhooks: {
    pollMs: number;
    retryBaseMs: number;
    retryCapMs: number;
    giveUpMs: number;
    timeoutMs: number;
    allowHttp: boolean;
  };
  /** Practices' e-mail digests: how often due ones are looked for (0: not in this instance), and the least gap. */
  digests: { pollSeconds: number; intervalMinutes: number };
  /** The fax gateway for practices' cover sheets; without it faxes are written to DATA_DIR/dev-fax. */
  faxGateway: { url: string; key: string } | undefined;
  /** Networks the outbound guard lets through although they are internal (OUTBOUND_ALLOWED_NETWORKS). */
  outboundAllowedNetworks: ReturnType<typeof parseNetworks>;
  /** How long a prescriber's decision is held before the pharmacy hears of it, and can be undone (0: no undo). */
  undoWindowSeconds: number;
  /** How often open live-update streams' sessions are checked: a stream outlives its session by at most this. */
  liveSessionCheckMs: number;
  warmUp: boolean;
  /** How long a request's headers and body may take to arrive (a slow upload included); then 408 and closed. */
  requestTimeoutMs: number;
  /** /metrics (Prometheus) answers a scraper sending this bearer token; unset, there are no metrics. */
  metricsToken: string | undefined;
  /** OpenTelemetry traces by OTLP/HTTP; unset, tracing is not loaded at all. */
  tracing: { endpoint: string; serviceName: string; headers: Record<string, string> } | undefined;
  /** Where attachments live: the database by default, S3-compatible storage when S3_URL is set. */
  fileStore: FileStoreConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function faxGatewayOf(url: string | undefined, key: string | undefined) {
  if (!url && !key) return undefined;
  if (!url || !key) throw new ConfigError('Invalid configuration: FAX_GATEWAY_URL and FAX_GATEWAY_KEY go together');
  return { url, key };
}

function readReplicaOf(primary: string | undefined, replica: string | undefined) {
  if (replica && !primary) throw new ConfigError('Invalid configuration: DATABASE_READ_URL needs DATABASE_URL (a replica of it)');
  return replica;
}

function fileStoreOf(url: string | undefined): FileStoreConfig {
  if (!url) return { kind: 'database' };
  const location = parseS3Url(url);
  if (typeof location === 'string') throw new ConfigError(`Invalid configuration: S3_URL ${location}`);
  return { kind: 's3', location };
}

/** Reads the environment; empty strings count as unset so `FOO= npm start` means "use the default". */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const cleaned = Object.fromEntries(Object.keys(envSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    const got = cleaned[name];
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${got === undefined ? '' : ` (got '${got}')`}`,
    );
  }
  const e = parsed.data;
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseReadUrl: readReplicaOf(e.DATABASE_URL, e.DATABASE_READ_URL),
    redisUrl: e.REDIS_URL,
    seedDemo: e.SEED_DEMO,
    seedSize: e.SEED_SIZE,
    logLevel: e.LOG_LEVEL,
    appEnv: e.APP_ENV,
    webDist: path.resolve(e.WEB_DIST),
    publicUrl: e.PUBLIC_URL,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    trustProxy: e.TRUST_PROXY,
    authSigningKey: e.AUTH_SIGNING_KEY,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: e.REFRESH_TOKEN_TTL_SECONDS,
    devMailLog: e.DEV_MAIL_LOG,
    authRateLimitPerMinute: e.AUTH_RATE_LIMIT_PER_MINUTE,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    googleClientId: e.GOOGLE_CLIENT_ID,
    googleJwksUrl: e.GOOGLE_JWKS_URL,
    housekeepingIntervalSeconds: e.HOUSEKEEPING_INTERVAL_SECONDS,
    fhirVersionDays: e.FHIR_VERSION_DAYS,
    idempotencyAbandonSeconds: e.IDEMPOTENCY_ABANDON_SECONDS,
    audit: {
      retentionDays: e.AUDIT_RETENTION_DAYS,
      sealIntervalSeconds: e.AUDIT_SEAL_INTERVAL_SECONDS,
      sealMarginSeconds: e.AUDIT_SEAL_MARGIN_SECONDS,
      timeZone: e.AUDIT_TIME_ZONE,
    },
    webhooks: {
      pollMs: e.WEBHOOK_POLL_MS,
      retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
      retryCapMs: e.WEBHOOK_RETRY_CAP_MS,
      giveUpMs: e.WEBHOOK_GIVE_UP_MS,
      timeoutMs: e.WEBHOOK_TIMEOUT_MS,
      allowHttp: e.WEBHOOK_ALLOW_HTTP ?? !isProduction(e.APP_ENV),
    },
    digests: { pollSeconds: e.DIGEST_POLL_SECONDS, intervalMinutes: e.DIGEST_INTERVAL_MINUTES },
    faxGateway: faxGatewayOf(e.FAX_GATEWAY_URL, e.FAX_GATEWAY_KEY),
    outboundAllowedNetworks: parseNetworks(e.OUTBOUND_ALLOWED_NETWORKS),
    undoWindowSeconds: e.UNDO_WINDOW_SECONDS,
    liveSessionCheckMs: e.LIVE_SESSION_CHECK_MS,
    warmUp: e.WARM_UP ?? true,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    metricsToken: e.METRICS_TOKEN,
    fileStore: fileStoreOf(e.S3_URL),
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT
      ? {
          endpoint: e.OTEL_EXPORTER_OTLP_ENDPOINT,
          serviceName: e.OTEL_SERVICE_NAME,
          headers: parseOtlpHeaders(e.OTEL_EXPORTER_OTLP_HEADERS),
        }
      : undefined,
  };
}
