/**
 * `POST /fhir/R4` with a transaction Bundle: a pharmacy sends a patient, the prescription and its Task together.
 * Entries may reference each other by `fullUrl` (`urn:uuid:…`); they are written referenced-first, each through
 * the same write as its own route, all in one database transaction: every entry commits, or none does and the
 * answer names the entry that failed.
 */
import type { Resource } from '@medplum/fhirtypes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Database } from '../../db/client.ts';
import { assertScope, type FhirContext, requireScope, send, systemOf } from './http.ts';
import { FhirError } from './outcome.ts';
import {
  conditionalIdentifier,
  createResources,
  createsInBatches,
  type Versioned,
  type WrittenType,
  writeResource,
} from './record-routes.ts';
import { RecordRefused, type WriteMode } from './upsert.ts';

const MAX_ENTRIES = 100;

// biome-ignore lint/suspicious/noExplicitAny: a map of differently-typed resource specs, each used with its own type.
type AnyWrittenType = WrittenType<any, any, any>;

interface Entry {
  index: number;
  fullUrl: string | null;
  type: string;
  spec: AnyWrittenType;
  mode: WriteMode;
  ifMatch: string | undefined;
  resource: Record<string, unknown>;
}

function fail(index: number | null, status: number, message: string, expression?: string[]): never {
  const code = status === 422 ? 'processing' : 'invalid';
  throw new FhirError(status, code, index === null ? message : `Bundle.entry[${index}]: ${message}`, expression);
}

/** Every `reference` string in a resource, at any depth. */
function referencesIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) referencesIn(item, found);
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'reference' && typeof child === 'string') found.push(child);
      else referencesIn(child, found);
    }
  }
  return found;
}

/** The resource with references to other entries' fullUrl replaced by `Type/id` of what was written. */
function resolved(value: unknown, written: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => resolved(item, written));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, child]) => [
        key,
        key === 'reference' && typeof child === 'string' && written.has(child) ? written.get(child) : resolved(child, written),
      ]),
    );
  }
  return value;
}

function parseEntry(raw: unknown, index: number, specs: Map<string, AnyWrittenType>): Entry {
  if (!raw || typeof raw !== 'object') fail(index, 400, 'each entry must be an object.', [`Bundle.entry[${index}]`]);
  const entry = raw as {
    fullUrl?: unknown;
    resource?: unknown;
    request?: { method?: unknown; url?: unknown; ifMatch?: unknown };
  };
  const resource = entry.resource as Record<string, unknown> | undefined;
  if (!resource || typeof resource !== 'object' || Array.isArray(resource)) {
    fail(index, 400, 'resource is required.', [`Bundle.entry[${index}].resource`]);
  }
  const type = String(resource.resourceType ?? '');
  const spec = specs.get(type);
  if (!spec)
    fail(index, 422, `${type || 'this resource type'} cannot be written here.`, [`Bundle.entry[${index}].resource.resourceType`]);
  const method = entry.request?.method;
  const url = typeof entry.request?.url === 'string' ? entry.request.url : '';
  let mode: WriteMode;
  if (method === 'POST' && url === type) mode = { kind: 'create' };
  else if (method === 'PUT' && url.startsWith(`${type}?`)) {
    mode = {
      kind: 'upsert',
      identifier: conditionalIdentifier(new URLSearchParams(url.slice(type.length + 1)).get('identifier')),
    };
  } else if (method === 'PUT' && url.startsWith(`${type}/`) && /^[A-Za-z0-9\-.]{1,64}$/.test(url.slice(type.length + 1))) {
    mode = { kind: 'update', id: url.slice(type.length + 1) };
  } else {
    return fail(index, 400, `request must be POST ${type}, PUT ${type}?identifier=system|value or PUT ${type}/<id>.`, [
      `Bundle.entry[${index}].request`,
    ]);
  }
  const fullUrl = typeof entry.fullUrl === 'string' ? entry.fullUrl : null;
  const ifMatch = typeof entry.request?.ifMatch === 'string' ? entry.request.ifMatch : undefined;
  return { index, fullUrl, type, spec, mode, ifMatch, resource };
}

/** Entries in an order where every entry comes after the entries it references; a cycle is a 422. */
function referencedFirst(entries: Entry[]): Entry[] {
  const byFullUrl = new Map(entries.filter((e) => e.fullUrl).map((e) => [e.fullUrl as string, e]));
  const ordered: Entry[] = [];
  const state = new Map<Entry, 'visiting' | 'done'>();
  const visit = (entry: Entry) => {
    if (state.get(entry) === 'done') return;
    if (state.get(entry) === 'visiting') fail(entry.index, 422, 'entries reference each other in a circle.');
    state.set(entry, 'visiting');
    for (const reference of referencesIn(entry.resource)) {
      const target = byFullUrl.get(reference);
      if (target && target !== entry) visit(target);
    }
    state.set(entry, 'done');
    ordered.push(entry);
  };
  for (const entry of entries) visit(entry);
  return ordered;
}

/** The refusal of an entry, naming it; nothing of the transaction is written. */
function refusedAt(entry: Entry, error: unknown): unknown {
  if (!(error instanceof FhirError)) return error;
  return new FhirError(
    error.statusCode,
    error.code,
    `Bundle.entry[${entry.index}]: ${error.message} Nothing in the transaction was written.`,
    error.expression?.map((path) => `Bundle.entry[${entry.index}].resource.${path.replace(/^[A-Za-z]+\.?/, '')}`),
  );
}

/**
 * The entries from `at` that can be created together: of one type, each `batches`, none referring to another of
 * them (a reference needs its target's id first). Empty when the entry at `at` cannot.
 */
function runAt(ordered: Entry[], at: number, batches: (entry: Entry) => boolean): Entry[] {
  const run: Entry[] = [];
  const fullUrls = new Set<string>();
  for (const entry of ordered.slice(at)) {
    if (!batches(entry) || (run[0] && entry.type !== run[0].type)) break;
    if (referencesIn(entry.resource).some((reference) => fullUrls.has(reference))) break;
    run.push(entry);
    if (entry.fullUrl) fullUrls.add(entry.fullUrl);
  }
  return run;
}

export function registerTransactions(app: FastifyInstance, ctx: FhirContext, specs: Map<string, AnyWrittenType>) {
  app.post('/', { onRequest: requireScope(ctx.tokens, null, 'write'), schema: { tags: ['fhir'] } }, async (request, reply) => {
    const bundle = request.body as { resourceType?: unknown; type?: unknown; entry?: unknown } | null;
    if (!bundle || typeof bundle !== 'object' || bundle.resourceType !== 'Bundle') {
      fail(null, 400, 'Post a Bundle of type transaction here.', ['Bundle.resourceType']);
    }
    if (bundle.type !== 'transaction') fail(null, 422, 'Only transaction Bundles are taken.', ['Bundle.type']);
    const raw = Array.isArray(bundle.entry) ? bundle.entry : [];
    if (raw.length === 0 || raw.length > MAX_ENTRIES)
      fail(null, 422, `A transaction holds 1 to ${MAX_ENTRIES} entries.`, ['Bundle.entry']);
    const entries = raw.map((entry, index) => parseEntry(entry, index, specs));
    const fullUrls = entries.map((e) => e.fullUrl).filter(Boolean);
    if (new Set(fullUrls).size !== fullUrls.length) fail(null, 400, 'Two entries share a fullUrl.', ['Bundle.entry.fullUrl']);
    for (const entry of entries) assertScope(systemOf(request), entry.type, 'write');

    const batches = (entry: Entry) =>
      entry.mode.kind !== 'update' && entry.ifMatch === undefined && createsInBatches(entry.spec, request as FastifyRequest);
    const results = await (ctx.db as Database).transaction(async (tx) => {
      const written = new Map<string, string>();
      const answers = new Array<{ entry: Entry; created: boolean; id: string; body: Resource & Versioned }>(entries.length);
      const answered = (entry: Entry, result: { created: boolean; id: string; body: Resource & Versioned }) => {
        if (entry.fullUrl) written.set(entry.fullUrl, `${entry.type}/${result.id}`);
        answers[entry.index] = { entry, created: result.created, id: result.id, body: result.body };
      };
      const writeOne = async (entry: Entry) => {
        try {
          const result = await writeResource(
            tx,
            entry.spec,
            request as FastifyRequest,
            entry.mode,
            resolved(entry.resource, written),
            entry.ifMatch,
          );
          answered(entry, result);
        } catch (error) {
          throw refusedAt(entry, error);
        }
      };
      const ordered = referencedFirst(entries);
      for (let at = 0; at < ordered.length; ) {
        const run = runAt(ordered, at, batches);
        at += Math.max(run.length, 1);
        if (run.length < 2) {
          await writeOne(ordered[at - 1] as Entry);
          continue;
        }
        // New records of one type that do not refer to one another (a morning's Tasks): one round of statements.
        const first = run[0] as Entry;
        let results: Awaited<ReturnType<typeof createResources>>;
        try {
          results = await createResources(
            tx,
            first.spec,
            request as FastifyRequest,
            run.map((entry) => ({ mode: entry.mode, body: resolved(entry.resource, written) })),
          );
        } catch (error) {
          if (error instanceof RecordRefused) throw refusedAt(run[error.index] as Entry, error.refusal);
          throw error;
        }
        for (const [index, result] of results.entries()) {
          const entry = run[index] as Entry;
          // Its identifier names a record already: written on its own (a resend acts once).
          if (result) answered(entry, result as { created: boolean; id: string; body: Resource & Versioned });
          else await writeOne(entry);
        }
      }
      return answers;
    });

    return send(reply, {
      resourceType: 'Bundle',
      type: 'transaction-response',
      entry: results.map(({ entry, created, id, body }) => ({
        fullUrl: `${ctx.base(request)}/${entry.type}/${id}`,
        resource: body,
        response: {
          status: created ? '201 Created' : '200 OK',
          location: `${entry.type}/${id}/_history/${body.meta.versionId}`,
          etag: `W/"${body.meta.versionId}"`,
        },
      })),
    });
  });
}
