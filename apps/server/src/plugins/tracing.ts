/**
 * OpenTelemetry traces (issue 24, docs/decisions/0036-tracing.md), exported by OTLP/HTTP when
 * OTEL_EXPORTER_OTLP_ENDPOINT is set. Without it this module is never imported (app.ts loads it on demand), so an
 * instance that does not trace pays nothing.
 *
 * Instrumented by hand rather than by auto-instrumentation, which patches modules as they load and needs a loader
 * hook under ESM: one SERVER span per request (wrapping the HTTP server's handler, so everything the request does runs
 * in its context), named by route template, carrying the request id; one CLIENT span per PostgreSQL statement made
 * inside a request. Nothing global is registered (tests build several apps in one process). Spans carry no patient
 * data: route templates, never paths or query strings; the statement's operation, never its text or values; a
 * failed statement's status, never its message (PostgreSQL quotes values in some).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type Context, defaultTextMapGetter, ROOT_CONTEXT, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import type { DatabaseHandle } from '../db/client.ts';

export interface TracingOptions {
  endpoint: string;
  serviceName: string;
  headers: Record<string, string>;
}

/** The statement's operation (SELECT, INSERT, WITH ...) from its text; the text itself is not kept. */
function operationOf(query: unknown): string {
  const text = typeof query === 'string' ? query : ((query as { text?: unknown } | null)?.text ?? '');
  return /^\s*([a-z]+)/i.exec(String(text))?.[1]?.toUpperCase() ?? 'QUERY';
}

export function createTracing(options: TracingOptions) {
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces`, headers: options.headers }),
      }),
    ],
  });
  const tracer = provider.getTracer('hcp-portal');
  const contexts = new AsyncLocalStorageContextManager();
  const propagator = new W3CTraceContextPropagator();
  const activeSpan = (): Span | undefined => trace.getSpan(contexts.active());

  /** Fastify's serverFactory: each request runs inside its SERVER span, continuing a caller's W3C trace if sent. */
  const serverFactory: FastifyServerFactory = (handler, options) =>
    // The app's own http options (the request time-out's checking beat) hold with tracing on as well.
    createServer(
      (options as { http?: Parameters<typeof createServer>[0] }).http ?? {},
      (req: IncomingMessage, res: ServerResponse) => {
        const parent: Context = propagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
        const span = tracer.startSpan(
          req.method ?? 'HTTP',
          { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method ?? '' } },
          parent,
        );
        res.once('close', () => {
          span.setAttribute('http.response.status_code', res.statusCode);
          if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        });
        contexts.with(trace.setSpan(parent, span), () => handler(req, res));
      },
    );

  return {
    serverFactory,

    /** Names each request's span by its route template and gives it the request id; traces the database's statements. */
    register(app: FastifyInstance, database: DatabaseHandle) {
      app.addHook('onRequest', async (request) => {
        const span = activeSpan();
        if (!span) return;
        const route = request.routeOptions.url ?? 'unknown route';
        span.updateName(`${request.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'hcp.request_id': request.id });
      });
      database.traceQuery = (query) => {
        const parent = contexts.active();
        // Background work (outbox, digests) polls every second: only statements a request makes are traced.
        if (!trace.getSpan(parent)) return undefined;
        const operation = operationOf(query);
        const span = tracer.startSpan(
          `pg ${operation}`,
          { kind: SpanKind.CLIENT, attributes: { 'db.system.name': 'postgresql', 'db.operation.name': operation } },
          parent,
        );
        return (failed) => {
          if (failed) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        };
      };
      contexts.enable();
      app.addHook('onClose', async () => {
        database.traceQuery = undefined;
        contexts.disable();
        await provider.shutdown();
      });
    },
  };
}
export type Tracing = ReturnType<typeof createTracing>;
