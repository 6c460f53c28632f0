import { randomUUID } from 'node:crypto';
/** buildApp(config, deps) -> Fastify instance without listen; tests drive it with app.inject. */

import rateLimit from '@fastify/rate-limit';
import { generateRequestId, isRequestId, NOTICE_RETRY } from '@hcp/contract';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { Redis } from 'ioredis';
import type { DestinationStream } from 'pino';
import type { Config } from './config.ts';
import type { DatabaseHandle } from './db/client.ts';
import { raiseDueRenewals } from './features/action-needed/pa-renewals.ts';
import { PRINT_STYLE } from './features/action-needed/print.ts';
import { actionNeededRoutes } from './features/action-needed/routes.ts';
import { createActionNeededService } from './features/action-needed/service.ts';
import { purgeUndos } from './features/action-needed/undo-repository.ts';
import { addressesRoutes } from './features/addresses/routes.ts';
import { createLinkedAppealFiles } from './features/appeals/linked-files.ts';
import { appealsRoutes } from './features/appeals/routes.ts';
import { createAppealsService } from './features/appeals/service.ts';
import { createAuditReviews } from './features/audit-trail/reviews.ts';
import { auditTrailRoutes } from './features/audit-trail/routes.ts';
import { createAuditTrailService } from './features/audit-trail/service.ts';
import { createGoogleVerifier } from './features/auth/google.ts';
import { purgeExpired } from './features/auth/repository.ts';
import { authRoutes } from './features/auth/routes.ts';
import { createAuthService } from './features/auth/service.ts';
import { createTokenSigner } from './features/auth/tokens.ts';
import { brandsRoutes } from './features/brands/routes.ts';
import { coverageRoutes } from './features/covering-prescribers/routes.ts';
import { createCoverageService } from './features/covering-prescribers/service.ts';
import { epcsRoutes } from './features/epcs/routes.ts';
import { createEpcsService } from './features/epcs/service.ts';
import { fhirRoutes } from './features/fhir/routes.ts';
import { purgeVersions } from './features/fhir/versions-repository.ts';
import { createWebhookEndpoints } from './features/fhir/webhooks/endpoints.ts';
import { webhookRoutes } from './features/fhir/webhooks/routes.ts';
import { createWebhookWorker, type WebhookWorker } from './features/fhir/webhooks/worker.ts';
import { firstAnswersRoutes } from './features/first-answers/routes.ts';
import { healthRoutes } from './features/health/routes.ts';
import { createIntegrationClients } from './features/integrations/clients.ts';
import { purgeAssertions } from './features/integrations/repository.ts';
import { integrationsRoutes } from './features/integrations/routes.ts';
import { createTokenEndpoint } from './features/integrations/token-endpoint.ts';
import { createLiveHub } from './features/live-updates/hub.ts';
import { liveUpdatesRoutes } from './features/live-updates/routes.ts';
import { manageAccountsRoutes } from './features/manage-accounts/routes.ts';
import { createManageAccountsService } from './features/manage-accounts/service.ts';
import { manageCommsRoutes } from './features/manage-comms/routes.ts';
import { createManageCommsService } from './features/manage-comms/service.ts';
import { newCommentsRoutes } from './features/new-comments/routes.ts';
import { createNewCommentsService } from './features/new-comments/service.ts';
import { createNoticeSender } from './features/office-notifications/deliver.ts';
import { createNoticeLinks } from './features/office-notifications/links.ts';
import { officeNotificationRoutes } from './features/office-notifications/routes.ts';
import { createOfficeDigests, type OfficeDigests } from './features/office-notifications/service.ts';
import { patientsRoutes } from './features/patients/routes.ts';
import { createPatientsService } from './features/patients/service.ts';
import { prescribeRoutes } from './features/prescribe/routes.ts';
import { createPrescribeService } from './features/prescribe/service.ts';
import { rxListRoutes } from './features/rx-list/routes.ts';
import { purgePasskeyChallenges } from './features/sign-in-factors/repository.ts';
import { signInFactorsRoutes } from './features/sign-in-factors/routes.ts';
import { createSignInFactors } from './features/sign-in-factors/service.ts';
import { standingRulesRoutes } from './features/standing-rules/routes.ts';
import { createStandingRulesService } from './features/standing-rules/service.ts';
import { supportAccessRoutes } from './features/support-access/routes.ts';
import { createSupportAccessService } from './features/support-access/service.ts';
import { usersRoutes } from './features/users/routes.ts';
import { createUsersService } from './features/users/service.ts';
import { type AuditChain, createAuditChain } from './lib/audit-chain.ts';
import { todayIsoOf } from './lib/clock.ts';
import { DECISIONS_CHANNEL } from './lib/decisions.ts';
import { createEpcsSigner } from './lib/epcs-signature.ts';
import { devFaxTransport, type FaxTransport, httpFaxTransport } from './lib/fax-gateway.ts';
import { isFlagEnabled } from './lib/feature-flags.ts';
import { createFileLinks } from './lib/file-links.ts';
import { createFileStore } from './lib/file-store/index.ts';
import { createHousekeeping, type Housekeeping, leaseSecondsOf, scheduleEvery } from './lib/housekeeping.ts';
import { takeLease } from './lib/leases.ts';
import { ITEMS_CHANNEL } from './lib/live.ts';
import { createMailer, devMailTransport, type MailTransport, smtpMailTransport } from './lib/mailer.ts';
import { createOutboundGuard, type OutboundGuard } from './lib/outbound/guard.ts';
import { redisStoreWithLocalFallback } from './lib/rate-limit-store.ts';
import { createReadRouting } from './lib/read-routing.ts';
import { resolveSigningKey } from './lib/signing-key.ts';
import { createSystemTokens } from './lib/system-tokens.ts';
import { createReadiness, type WarmUpReport } from './lib/warm-up.ts';
import { registerAuthGuard } from './plugins/auth.ts';
import { registerCompression } from './plugins/compression.ts';
import { databaseDenyList, redisDenyList } from './plugins/deny-list.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { purgeIdempotencyKeys, registerIdempotency } from './plugins/idempotency.ts';
import { registerInputSafety } from './plugins/input-safety.ts';
import { loggerOptions } from './plugins/logging.ts';
import { registerMetrics } from './plugins/metrics.ts';
import { registerOpenApi } from './plugins/openapi.ts';
import { registerReachGuard } from './plugins/reach.ts';
import { registerSecurityHeaders } from './plugins/security.ts';
import { registerWebApp } from './plugins/web-app.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The outbound webhook worker of this instance (tests drive rounds by hand with runOnce). */
    webhookWorker: WebhookWorker;
    /** The practices' e-mail digests (tests run a round by hand). */
    officeDigests: OfficeDigests;
    /** Purges of expired rows, once per cluster (tests run a round by hand). */
    housekeeping: Housekeeping;
    /** The audit trail's seals (issue 49): tests seal and verify by hand. */
    auditChain: AuditChain;
    /** Opens every pooled connection; /readyz says ready once it has run (main.ts calls it). */
    warmUp(): Promise<WarmUpReport>;
  }
}

export interface AppDeps {
  database: DatabaseHandle;
  /** Where log lines go; tests pass a stream to read them. Defaults to stdout. */
  logStream?: DestinationStream;
  /** The clock of business rules (today's date for postponed refills); tests move it. */
  now?: () => Date;
  /** Outgoing mail; defaults to SMTP when SMTP_URL is set, else the dev transport (DATA_DIR/dev-mail.jsonl). */
  mailTransport?: MailTransport;
  /** Where faxes go; by default the configured gateway (FAX_GATEWAY_URL) or the dev transport. */
  faxTransport?: FaxTransport;
}

export const REQUEST_ID_HEADER = 'x-request-id';
/** Redis answers in well under a millisecond here; 500 ms is an outage, not a slow moment. */
export const REDIS_OPTIONS = {
  lazyConnect: false,
  commandTimeout: 500,
  connectTimeout: 2_000,
  maxRetriesPerRequest: 1,
} as const;
/** Headers arrive in one go from any real client: 20 s is generous (the request time-out bounds the body). */
const HEADERS_TIMEOUT_MS = 20_000;

export async function buildApp(config: Config, deps: AppDeps): Promise<FastifyInstance> {
  // Loaded only when asked for: without an endpoint no OpenTelemetry code runs (plugins/tracing.ts).
  const tracing = config.tracing ? (await import('./plugins/tracing.ts')).createTracing(config.tracing) : null;
  const app = Fastify({
    ...(tracing ? { serverFactory: tracing.serverFactory } : {}),
    logger: deps.logStream ? { ...loggerOptions(config), stream: deps.logStream } : loggerOptions(config),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    // The client's id is used when it is well-formed, so its log lines and ours share one id.
    genReqId: (req) => {
      const header = req.headers[REQUEST_ID_HEADER];
      return isRequestId(header) ? header : generateRequestId();
    },
    forceCloseConnections: 'idle',
    // A request (headers and body) must arrive within this, or it is answered 408 and its socket closed: a body
    // that never finishes cannot hold a socket (issue 43).
    requestTimeout: config.requestTimeoutMs,
    // Node needs both at creation, headers no later than the whole request (else its 60 s header wait governs), and
    // checks on a beat (30 s by default): a tenth of the time-out, so the limit holds to within that.
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: Math.min(config.requestTimeoutMs, HEADERS_TIMEOUT_MS),
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(config.requestTimeoutMs / 10))),
    },
    // The spec puts Google's ID token (1-2 KB) in the path of /auth/mdo/google/{token}; the default is 100.
    routerOptions: { maxParamLength: 4096 },
  }).withTypeProvider<ZodTypeProvider>();

  tracing?.register(app, deps.database);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', async (request, reply) => {
    reply.header(REQUEST_ID_HEADER, request.id);
  });

  registerErrorHandling(app);
  // Before any route: depth-limited JSON and the text rule apply to every route (issue 43).
  registerInputSafety(app);
  // Before any route, so every read is registered with it (its hooks attach per route).
  await registerCompression(app);
  // /readyz waits for the warm-up (lib/warm-up.ts), which main.ts starts once the server listens.
  const readiness = createReadiness({ enabled: config.warmUp, warmConnections: () => deps.database.warmConnections() });
  app.decorate('warmUp', () => readiness.warmUp());
  const metrics = config.metricsToken ? registerMetrics(app, deps.database, config.metricsToken) : null;
  await registerSecurityHeaders(app, { allowGoogleSignIn: Boolean(config.googleClientId), inlineStyles: [PRINT_STYLE] });
  await registerOpenApi(app);

  // Shared state for several instances lives in Redis when configured (DESIGN §2).
  // Every command has a time-out (one queued while Redis reconnects included): each use decides what an outage
  // means (decision 0052) instead of waiting for Redis to come back.
  const redis = config.redisUrl ? new Redis(config.redisUrl, REDIS_OPTIONS) : null;
  if (redis) {
    // A connection that fails is reported here (else ioredis prints "Unhandled error event"); commands fail or time
    // out on their own and each use falls back as decided. Once per message until Redis is back.
    let reported = '';
    redis.on('error', (error: Error) => {
      if (error.message !== reported) app.log.warn(`redis: ${error.message}`);
      reported = error.message;
    });
    redis.on('ready', () => {
      reported = '';
    });
    app.addHook('onClose', async () => void (await redis.quit().catch(() => redis.disconnect())));
  }
  await app.register(rateLimit, {
    global: false,
    ...(redis
      ? {
          store: redisStoreWithLocalFallback(redis, 'hcp:rl:', (error) =>
            app.log.warn(`rate limit counted by this instance alone: ${error.message}`),
          ),
        }
      : {}),
  });

  const db = deps.database.db;
  const signingKey = await resolveSigningKey(config);
  const signer = createTokenSigner(signingKey, config.accessTokenTtlSeconds);
  const denyList = redis ? redisDenyList(redis, db, { warn: (message) => app.log.warn(message) }) : databaseDenyList(db);
  const reads = createReadRouting({
    primary: db,
    replica: deps.database.replica ?? null,
    redis,
    onReplicaError: (error) => app.log.warn({ err: error }, 'read replica failed; the list was read from the primary'),
  });
  if (reads.replica) {
    // Before the answer leaves: the user's next list read may come at once, to any instance.
    app.addHook('onSend', async (request, reply) => {
      if (request.auth && request.method !== 'GET' && request.method !== 'HEAD' && reply.statusCode < 400) {
        await reads.noteWrite(request.auth.userId);
      }
    });
  }
  // The one door for the HTTP calls this server makes (decision 0050): webhooks, key sets, the fax gateway, storage.
  const outbound = createOutboundGuard({ allowedNetworks: config.outboundAllowedNetworks });
  app.addHook('onClose', async () => outbound.close());
  const mailTransport = deps.mailTransport ?? defaultMailTransport(config, app);
  const mailer = createMailer(db, mailTransport, app.log);
  registerAuthGuard(app, { signer, denyList });
  // Before any route: each route's references and accepted fields are read from its schemas as it is added.
  registerReachGuard(app, { db });
  registerIdempotency(app, db, { abandonedAfterSeconds: config.idempotencyAbandonSeconds });
  const factors = createSignInFactors({ db, mailer, signingKey, now: () => (deps.now?.() ?? new Date()).getTime() });
  const auth = createAuthService({
    db,
    factors,
    signer,
    denyList,
    mailer,
    signingKey,
    refreshTokenTtlSeconds: config.refreshTokenTtlSeconds,
    ...(metrics ? { signals: metrics } : {}),
    google: createGoogleVerifier({ clientId: config.googleClientId, jwksUrl: config.googleJwksUrl, guard: outbound }),
  });

  const now = deps.now ?? (() => new Date());
  const fileLinks = createFileLinks(signingKey);
  const fileStore = createFileStore(config.fileStore, db, outbound.fetch);
  const appeals = createAppealsService({ db, signingKey, now, store: fileStore });
  const instanceId = randomUUID();
  const auditChain = createAuditChain(db, signingKey);
  app.decorate('auditChain', auditChain);
  // Sealing runs every minute on one instance of the cluster (its own lease); each round logs the chain's head, a
  // copy outside the database that a truncated chain cannot take back (decision 0061).
  const sealInterval = config.audit.sealIntervalSeconds;
  scheduleEvery(app, 'audit sealing', sealInterval, async () => {
    if (!(await takeLease(db, 'audit-seal', instanceId, leaseSecondsOf(sealInterval)))) return;
    const round = await auditChain.seal({ marginSeconds: config.audit.sealMarginSeconds });
    if (round.head) app.log.info({ auditSeal: round }, 'audit trail sealed');
  });
  app.decorate(
    'housekeeping',
    createHousekeeping(app, {
      cluster: {
        signIn: (at) => purgeExpired(db, at),
        passkeyChallenges: (at) => purgePasskeyChallenges(db, at),
        idempotencyKeys: (at) => purgeIdempotencyKeys(db, at),
        integrationAssertions: (at) => purgeAssertions(db, at),
        decisionUndos: (at) => purgeUndos(db, at),
        fhirVersions: (at) => purgeVersions(db, at, config.fhirVersionDays),
        auditTrail: (at) => auditChain.purge(at, config.audit.retentionDays),
        appealFiles: (at) => appeals.sweepOrphanFiles(at),
        // Not a purge, but a daily round that must run once per cluster (issue 23): the lease is the point.
        priorAuthRenewals: (at) =>
          raiseDueRenewals(
            db,
            todayIsoOf(() => at),
          ),
      },
      intervalSeconds: config.housekeepingIntervalSeconds,
      takeLease: (seconds) => takeLease(db, 'housekeeping', instanceId, seconds),
    }),
  );

  await app.register(healthRoutes, { ping: () => deps.database.ping(), isWarm: () => readiness.warm });
  await app.register(authRoutes, {
    auth,
    perMinute: config.authRateLimitPerMinute,
    publicUrl: config.publicUrl,
    googleClientId: config.googleClientId,
  });
  await app.register(signInFactorsRoutes, { factors, perMinute: config.authRateLimitPerMinute });
  await app.register(usersRoutes, { service: createUsersService({ db }) });
  // EPCS (issue 48): the application's signing key for controlled prescriptions, derived from the signing key.
  const epcsSigner = createEpcsSigner(signingKey);
  await app.register(actionNeededRoutes, {
    db,
    service: createActionNeededService({
      db,
      reads,
      now,
      undoWindowSeconds: config.undoWindowSeconds,
      epcs: { factors, signer: epcsSigner },
    }),
    signPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(epcsRoutes, {
    epcs: createEpcsService({ db, factors, mailer, now, timeZone: config.audit.timeZone }),
    signer: epcsSigner,
    perMinute: config.authRateLimitPerMinute,
  });
  await app.register(auditTrailRoutes, {
    reports: createAuditTrailService({ db, now, timeZone: config.audit.timeZone }),
    reviews: createAuditReviews({ db, chain: auditChain, now, timeZone: config.audit.timeZone }),
    verifyPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(rxListRoutes, { reads, now });
  await app.register(firstAnswersRoutes);
  await app.register(patientsRoutes, { service: createPatientsService({ db, reads, now }) });
  await app.register(newCommentsRoutes, { service: createNewCommentsService({ db, reads, now }) });
  await app.register(manageCommsRoutes, { service: createManageCommsService({ db, sessions: auth }) });
  await app.register(addressesRoutes, { db });
  await app.register(brandsRoutes, { db, reportTimeZone: config.audit.timeZone });
  await app.register(appealsRoutes, {
    service: appeals,
    linkedFiles: createLinkedAppealFiles({ db, attachments: appeals, links: fileLinks }),
    authPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(prescribeRoutes, {
    service: createPrescribeService({
      db,
      now,
      isPrescribingEnabled: () => isFlagEnabled(db, 'isHcpPrescribingEnabled'),
      epcs: { factors, signer: epcsSigner },
    }),
    signPerMinute: config.authRateLimitPerMinute,
  });
  await app.register(standingRulesRoutes, { service: createStandingRulesService({ db }) });
  await app.register(coverageRoutes, { service: createCoverageService({ db, now }) });
  await app.register(supportAccessRoutes, { service: createSupportAccessService({ db, now }) });
  await app.register(manageAccountsRoutes, {
    service: createManageAccountsService({ db, sessions: auth }),
    publicUrl: config.publicUrl,
  });

  const systemTokens = createSystemTokens(signingKey);
  await app.register(integrationsRoutes, {
    clients: createIntegrationClients({ db, guard: outbound }),
    tokenEndpoint: createTokenEndpoint({ db, tokens: systemTokens, guard: outbound }),
    publicUrl: config.publicUrl,
    perMinute: config.authRateLimitPerMinute,
  });
  await app.register(fhirRoutes, { prefix: '/fhir/R4', db, tokens: systemTokens, publicUrl: config.publicUrl });
  await app.register(webhookRoutes, {
    endpoints: createWebhookEndpoints({ db, allowHttp: config.webhooks.allowHttp, guard: outbound }),
  });
  // Where links in messages to pharmacies and offices point.
  const portalUrl = config.publicUrl ?? `http://${config.host}:${config.port}`;
  const webhookWorker = createWebhookWorker({
    db,
    log: app.log,
    links: { baseUrl: portalUrl, url: fileLinks.url },
    pollMs: config.webhooks.pollMs,
    limits: config.webhooks,
    guard: outbound,
    // A lost LISTEN connection may have missed a wake-up: the worker looks once it is back.
    listen: (onNotify) => deps.database.listen(DECISIONS_CHANNEL, onNotify, onNotify),
  });
  app.decorate('webhookWorker', webhookWorker);
  const officeDigests = createOfficeDigests({
    db,
    sender: createNoticeSender({
      db,
      mail: mailTransport,
      fax: deps.faxTransport ?? defaultFaxTransport(config, app, outbound),
      log: app.log,
      now,
    }),
    log: app.log,
    now,
    portalUrl,
    intervalMinutes: config.digests.intervalMinutes,
  });
  app.decorate('officeDigests', officeDigests);
  scheduleEvery(app, 'office digests', config.digests.pollSeconds, () => officeDigests.runOnce());
  const liveHub = createLiveHub({
    listen: (onNotify, onGap) => deps.database.listen(ITEMS_CHANNEL, onNotify, onGap),
  });
  // Open streams would hold the server open: they end before it closes.
  app.addHook('preClose', async () => liveHub.close());
  await app.register(liveUpdatesRoutes, { db, hub: liveHub, sessionCheckMs: config.liveSessionCheckMs });
  await app.register(officeNotificationRoutes, { links: createNoticeLinks({ db, now }) });
  app.addHook('onReady', async () => webhookWorker.start());
  app.addHook('onClose', async () => webhookWorker.stop());

  await registerWebApp(app, config.webDist);
  return app;
}

function defaultFaxTransport(config: Config, app: FastifyInstance, outbound: OutboundGuard): FaxTransport {
  if (!config.faxGateway) return devFaxTransport({ dataDir: config.dataDir, log: app.log, writeFile: config.devMailLog });
  return httpFaxTransport({ ...config.faxGateway, timeoutMs: NOTICE_RETRY.timeoutMs, fetch: outbound.fetch });
}

function defaultMailTransport(config: Config, app: FastifyInstance): MailTransport {
  if (!config.smtpUrl) return devMailTransport({ dataDir: config.dataDir, log: app.log, writeFile: config.devMailLog });
  const smtp = smtpMailTransport({ url: config.smtpUrl, from: config.mailFrom });
  app.addHook('onClose', async () => smtp.close());
  return smtp;
}
