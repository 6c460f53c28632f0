/**
 * The interactions of a resource type the pharmacy writes: create (`POST /T`), conditional update by business
 * identifier (`PUT /T?identifier=system|value`), update (`PUT /T/:id`, `If-Match`), read and search. The body is
 * validated against R4 (400), then mapped (422 naming the element), then written in one transaction.
 */
import type { Resource } from '@medplum/fhirtypes';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import {
  auditRead,
  type FhirContext,
  idParams,
  recordFilter,
  requireScope,
  type SearchQuery,
  searchQuery,
  searchset,
  send,
  systemOf,
} from './http.ts';
import { type BusinessIdentifier, parseToken } from './mapping/common.ts';
import { FhirError } from './outcome.ts';
import type { RecordFilter, RecordType } from './records-repository.ts';
import { ONE, type Page } from './repository.ts';
import { appliedParams, type SearchableType } from './search-params.ts';
import { type AnswerOnce, createRecords, type RecordOps, RecordRefused, type WriteMode, writeRecord } from './upsert.ts';
import { validated } from './validate.ts';
import { keptVersion } from './versions-repository.ts';

/** A resource as the portal answers it: with its id and version. */
export type Versioned = { id: string; meta: { versionId: string; lastUpdated: string } };

export interface WrittenType<R extends Resource, Row extends { id: string }, Fields> {
  type: R['resourceType'];
  entityType: string;
  /** Task search by status: the statuses it may name; null when the type has no status search. */
  statuses: readonly string[] | null;
  rows(db: Executor, tenantId: string, filter: RecordFilter, page: Page): Promise<{ rows: Row[]; total: number }>;
  toResource(row: Row): R;
  fromResource(resource: R): { identifier: BusinessIdentifier; fields: Fields };
  /** The write operations; their locked row is a `Row` as `rows` answers it, with its version. */
  ops(request: FastifyRequest, identifier: BusinessIdentifier): RecordOps<{ id: string; versionId: string }, Fields>;
}

async function readResource<R extends Resource, Row extends { id: string }, Fields>(
  db: Executor,
  spec: WrittenType<R, Row, Fields>,
  tenantId: string,
  id: string,
) {
  const row = (await spec.rows(db, tenantId, { id }, ONE)).rows[0];
  // Every mapping sets the id and meta of what it maps (tested both ways in fhir-mapping.test.ts).
  return row ? (spec.toResource(row) as R & Versioned) : null;
}

/** The body as a resource of the type (400), mapped (422), its identifier the one of the address when it names one. */
function mapped<R extends Resource, Row extends { id: string }, Fields>(
  spec: WrittenType<R, Row, Fields>,
  mode: WriteMode,
  body: unknown,
) {
  const { type } = spec;
  const resource = validated<R>(body, type);
  if (mode.kind === 'update' && resource.id !== undefined && resource.id !== mode.id) {
    throw new FhirError(400, 'invalid', `${type}.id does not match the id in the address.`, [`${type}.id`]);
  }
  const { identifier, fields } = spec.fromResource(resource);
  if (mode.kind === 'upsert' && (identifier.system !== mode.identifier.system || identifier.value !== mode.identifier.value)) {
    throw new FhirError(400, 'invalid', `${type}.identifier must carry the identifier of the address.`, [`${type}.identifier`]);
  }
  return { identifier, fields };
}

/** A write's answer: the record as read, with what only the creating answer carries (an appeal's key, once). */
function withOnce<Body>(written: { body: Body; once?: AnswerOnce }) {
  if (!written.body) throw new FhirError(500, 'exception', 'The record was written but could not be read back.');
  const output = written.once?.output;
  const answer = output
    ? { ...written.body, output: [...output, ...((written.body as { output?: unknown[] }).output ?? [])] }
    : written.body;
  return answer as NonNullable<Body>;
}

/**
 * Validates (400), maps (422) and writes one resource of the type, then reads it back in the same transaction:
 * its own, or a savepoint of the caller's (`db` a transaction Bundle's transaction).
 */
export async function writeResource<R extends Resource, Row extends { id: string }, Fields>(
  db: Executor,
  spec: WrittenType<R, Row, Fields>,
  request: FastifyRequest,
  mode: WriteMode,
  body: unknown,
  ifMatch: string | undefined,
) {
  const { identifier, fields } = mapped(spec, mode, body);
  const system = systemOf(request);
  const written = await writeRecord(
    db,
    { system, requestId: request.id, ip: request.ip ?? null, mode, ifMatch },
    spec.ops(request, identifier),
    identifier,
    fields,
    // Unchanged, the locked row is the record as it reads (a resend costs no second read).
    async (tx, id, unchanged) =>
      unchanged ? (spec.toResource(unchanged as unknown as Row) as R & Versioned) : readResource(tx, spec, system.tenantId, id),
  );
  return { ...written, body: withOnce(written) };
}

/** Whether the type writes a run of new records in one round of statements (createResources). */
export const createsInBatches = (spec: WrittenType<Resource, { id: string }, unknown>, request: FastifyRequest) =>
  spec.ops(request, { system: '', value: '' }).createMany !== undefined;

/**
 * Validates, maps and creates several new resources of one type in the caller's transaction (a transaction Bundle's
 * run of creates and conditional updates): every claim in one statement and the plain new records in one more. Each
 * is answered as writeResource answers it, in order; null where its identifier already names a record (the caller
 * writes that one on its own). A refusal is thrown as a RecordRefused naming the resource by its place.
 */
export async function createResources<R extends Resource, Row extends { id: string }, Fields>(
  tx: Executor,
  spec: WrittenType<R, Row, Fields>,
  request: FastifyRequest,
  resources: { mode: WriteMode; body: unknown }[],
) {
  const items = resources.map(({ mode, body }, index) => {
    try {
      return mapped(spec, mode, body);
    } catch (error) {
      throw new RecordRefused(index, error);
    }
  });
  const system = systemOf(request);
  const ops = spec.ops(request, (items[0] as (typeof items)[number]).identifier);
  const written = await createRecords(tx, { system, requestId: request.id, ip: request.ip ?? null }, ops, items, (id) =>
    readResource(tx, spec, system.tenantId, id),
  );
  return written.map((one) => (one ? { ...one, body: withOnce(one) } : null));
}

/** The `identifier=system|value` of a conditional update, or a 400 naming the parameter. */
export function conditionalIdentifier(param: string | undefined | null): BusinessIdentifier {
  const token = param ? parseToken(param) : null;
  if (!token?.system || !token.value) {
    throw new FhirError(400, 'invalid', 'A conditional update needs ?identifier=system|value.', ['identifier']);
  }
  return { system: token.system, value: token.value };
}

const conditionalQuery = z.object({ identifier: z.string().max(600).optional() });
const versionParams = idParams.extend({ vid: z.string().regex(/^[0-9]{1,20}$/, { message: 'A version id is a number.' }) });

export function registerWrittenType<R extends Resource, Row extends { id: string }, Fields>(
  app: FastifyInstance,
  ctx: FhirContext,
  spec: WrittenType<R, Row, Fields>,
) {
  const { type, entityType } = spec;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const read = requireScope(ctx.tokens, type, 'read');
  const write = requireScope(ctx.tokens, type, 'write');

  const readOne = (db: Executor, tenantId: string, id: string) => readResource(db, spec, tenantId, id);
  const handleWrite = (request: FastifyRequest, mode: WriteMode) => {
    const ifMatch = request.headers['if-match'];
    return writeResource(ctx.db, spec, request, mode, request.body, typeof ifMatch === 'string' ? ifMatch : undefined);
  };

  const answer = (
    request: FastifyRequest,
    reply: Parameters<typeof send>[0],
    written: Awaited<ReturnType<typeof handleWrite>>,
  ) => {
    const { body } = written;
    reply.header('etag', `W/"${body.meta.versionId}"`);
    reply.header('last-modified', new Date(body.meta.lastUpdated).toUTCString());
    if (written.created) {
      reply.header('location', `${ctx.base(request)}/${type}/${written.id}/_history/${body.meta.versionId}`);
      reply.code(201);
    }
    return send(reply, body);
  };

  routes.post(`/${type}`, { onRequest: write, schema: { tags: ['fhir'] } }, async (request, reply) =>
    answer(request, reply, await handleWrite(request, { kind: 'create' })),
  );

  routes.put(
    `/${type}`,
    { onRequest: write, schema: { tags: ['fhir'], querystring: conditionalQuery } },
    async (request, reply) => {
      const identifier = conditionalIdentifier(request.query.identifier);
      return answer(request, reply, await handleWrite(request, { kind: 'upsert', identifier }));
    },
  );

  routes.put(`/${type}/:id`, { onRequest: write, schema: { tags: ['fhir'], params: idParams } }, async (request, reply) =>
    answer(request, reply, await handleWrite(request, { kind: 'update', id: request.params.id })),
  );

  routes.get(`/${type}/:id`, { onRequest: read, schema: { tags: ['fhir'], params: idParams } }, async (request, reply) => {
    const body = await readOne(ctx.db, systemOf(request).tenantId, request.params.id);
    if (!body) throw new FhirError(404, 'not-found', `${type}/${request.params.id} is not known.`);
    await auditRead(ctx.db, request, `fhir.${type}.read`, entityType, body.id);
    reply.header('etag', `W/"${body.meta.versionId}"`);
    reply.header('last-modified', new Date(body.meta.lastUpdated).toUTCString());
    return send(reply, body);
  });

  // vread: the current version live, an earlier one as it was answered when the pharmacy wrote it or was sent it.
  routes.get(
    `/${type}/:id/_history/:vid`,
    { onRequest: read, schema: { tags: ['fhir'], params: versionParams } },
    async (request, reply) => {
      const { id, vid } = request.params;
      const { tenantId } = systemOf(request);
      const current = await readOne(ctx.db, tenantId, id);
      if (!current) throw new FhirError(404, 'not-found', `${type}/${id} is not known.`);
      const body =
        current.meta.versionId === vid
          ? current
          : ((await keptVersion(ctx.db, tenantId, type as RecordType, id, vid)) as (R & Versioned) | null);
      if (!body) {
        throw new FhirError(
          404,
          'not-found',
          `${type}/${id} has no version ${vid} kept here (its current version is ${current.meta.versionId}). ` +
            'Kept: each version your writes made and each one a webhook message carried.',
        );
      }
      await auditRead(ctx.db, request, `fhir.${type}.vread`, entityType, id, { versionId: vid });
      reply.header('etag', `W/"${body.meta.versionId}"`);
      reply.header('last-modified', new Date(body.meta.lastUpdated).toUTCString());
      return send(reply, body);
    },
  );

  // Every written type has its row in search-params.ts (the CapabilityStatement and the searches read it).
  const searchType = type as SearchableType;
  routes.get(`/${type}`, { onRequest: read, schema: { tags: ['fhir'], querystring: searchQuery } }, async (request, reply) => {
    const query = request.query as SearchQuery;
    const applied = appliedParams(request, searchType);
    const filter = recordFilter(applied, searchType, query, spec.statuses);
    const page = { count: query._count, offset: query._offset };
    const { rows, total } = await spec.rows(ctx.db, systemOf(request).tenantId, filter, page);
    await auditRead(ctx.db, request, `fhir.${type}.search`, entityType, null, { total });
    return send(reply, searchset(applied, ctx.base(request), searchType, rows.map(spec.toResource), total, page));
  });
}
