/**
 * OpenTelemetry (plugins/tracing.ts): with OTEL_EXPORTER_OTLP_ENDPOINT set, requests leave SERVER spans named by route
 * template with the request id, continuing a caller's W3C trace, and (on PostgreSQL) a CLIENT span per statement
 * under them; a local OTLP/HTTP receiver stands in for the collector. No patient data, ids or search text leave.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { generateRequestId } from '@hcp/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { authHeaders, signIn } from './support/auth.ts';

interface OtlpValue {
  stringValue?: string;
  intValue?: number | string;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpBody {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const bodies: string[] = [];
const collector = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.url === '/v1/traces') bodies.push(Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  });
});

const attribute = (span: OtlpSpan | undefined, key: string) => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

let t: TestApp;
let base: string;
beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  t = await buildTestApp({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_SERVICE_NAME: 'hcp-portal-test' } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await t?.close().catch(() => undefined);
  collector.close();
});

describe('OpenTelemetry tracing', () => {
  it('is off unless an endpoint is set, and reads the standard variables', () => {
    expect(loadConfig({}).tracing).toBeUndefined();
    expect(
      loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_EXPORTER_OTLP_HEADERS: 'api-key=a%3Db,x=1' })
        .tracing,
    ).toEqual({ endpoint: 'http://collector:4318', serviceName: 'hcp-portal', headers: { 'api-key': 'a=b', x: '1' } });
  });

  it('exports a span per request with its route template, request id and status, under the caller’s trace', async () => {
    const morgan = await signIn(t.app, 'dr.morgan@demo.hcp');
    const requestId = generateRequestId();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpanId = '00f067aa0ba902b7';
    const queue = await fetch(`${base}/api/mdo/v2/users/${morgan.userID}/action-needed?actionType=ACTION_NEEDED_ALL`, {
      headers: { ...authHeaders(morgan), 'x-request-id': requestId, traceparent: `00-${traceId}-${callerSpanId}-01` },
    });
    expect(queue.status).toBe(200);
    const search = await fetch(`${base}/api/mdo/v1/users/${morgan.userID}/patients-search?searchText=Smith`, {
      headers: authHeaders(morgan),
    });
    expect(search.status).toBe(200);
    // Closing the app flushes the spans to the collector.
    await t.app.close();

    const raw = bodies.join('\n');
    const parsed = bodies.map((b) => JSON.parse(b) as OtlpBody);
    const spans = parsed.flatMap((b) => b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
    const service = parsed[0]?.resourceSpans[0]?.resource.attributes.find((a) => a.key === 'service.name');
    expect(service?.value.stringValue).toBe('hcp-portal-test');

    const request = spans.find((s) => s.name === 'GET /api/mdo/v2/users/:userId/action-needed');
    expect(request, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(attribute(request, 'hcp.request_id')).toBe(requestId);
    expect(attribute(request, 'http.route')).toBe('/api/mdo/v2/users/:userId/action-needed');
    expect(attribute(request, 'http.response.status_code')).toBe(200);
    expect(request?.traceId.toLowerCase()).toBe(traceId);
    expect(request?.parentSpanId?.toLowerCase()).toBe(callerSpanId);
    expect(spans.some((s) => s.name === 'GET /api/mdo/v1/users/:userId/patients-search')).toBe(true);

    if (t.database.kind === 'postgres') {
      const statements = spans.filter((s) => s.parentSpanId === request?.spanId && s.name.startsWith('pg '));
      expect(statements.length).toBeGreaterThan(0);
      expect(attribute(statements[0], 'db.system.name')).toBe('postgresql');
    }
    // Route templates and operations only: no user id, searched name or patient data.
    expect(raw).not.toContain(morgan.userID);
    expect(raw).not.toContain('Smith');
    expect(raw).not.toContain('ACTION_NEEDED_ALL');
  });
});
