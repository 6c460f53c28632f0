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
import type { RecordFilter } from './records-repository.ts';
import type { Page } from './repository.ts';
import { type RecordOps, type WriteMode, writeRecord } from './upsert.ts';
import { validated } from './validate.ts';

export interface WrittenType<R extends Resource, Row extends { id: string }, Fields> {
  type: R['resourceType'];
  entityType: string;
  /** Task search by status: the statuses it may name; null when the type has no status search. */
  statuses: readonly string[] | null;
  rows(db: Executor, tenantId: string, filter: RecordFilter, page: Page): Promise<{ rows: Row[]; total: number }>;
  toResource(row: Row): R & { id: string; meta: { versionId: string } };
  fromResource(resource: R): { identifier: BusinessIdentifier; fields: Fields };
  ops(request: FastifyRequest, identifier: BusinessIdentifier): RecordOps<{ versionId: string }, Fields>;
}

const conditionalQuery = z.object({ identifier: z.string().max(600).optional() });
const ONE = { count: 1, offset: 0 };

export function registerWrittenType<R extends Resource, Row extends { id: string }, Fields>(
  app: FastifyInstance,
  ctx: FhirContext,
  spec: WrittenType<R, Row, Fields>,
) {
  const { type, entityType } = spec;
  const routes = app.withTypeProvider<ZodTypeProvider>();
  const read = requireScope(ctx.tokens, type, 'read');
  const write = requireScope(ctx.tokens, type, 'write');

  async function readOne(tenantId: string, id: string) {
    const row = (await spec.rows(ctx.db, tenantId, { id }, ONE)).rows[0];
    return row ? spec.toResource(row) : null;
  }

  async function handleWrite(request: FastifyRequest, mode: WriteMode) {
    const resource = validated<R>(request.body, type);
    if (mode.kind === 'update' && resource.id !== undefined && resource.id !== mode.id) {
      throw new FhirError(400, 'invalid', `${type}.id does not match the id in the address.`, [`${type}.id`]);
    }
    const { identifier, fields } = spec.fromResource(resource);
    const ifMatch = request.headers['if-match'];
    const outcome = await writeRecord(
      ctx.db,
      {
        system: systemOf(request),
        requestId: request.id,
        ip: request.ip ?? null,
        mode,
        ifMatch: typeof ifMatch === 'string' ? ifMatch : undefined,
      },
      spec.ops(request, identifier),
      identifier,
      fields,
    );
    const body = await readOne(systemOf(request).tenantId, outcome.id);
    if (!body) throw new FhirError(500, 'exception', 'The record was written but could not be read back.');
    return { outcome, body };
  }

  const answer = (
    request: FastifyRequest,
    reply: Parameters<typeof send>[0],
    written: Awaited<ReturnType<typeof handleWrite>>,
  ) => {
    const { outcome, body } = written;
    reply.header('etag', `W/"${body.meta.versionId}"`);
    reply.header('last-modified', new Date().toUTCString());
    if (outcome.created) {
      reply.header('location', `${ctx.base(request)}/${type}/${outcome.id}/_history/${body.meta.versionId}`);
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
      const { identifier } = request.query;
      const token = identifier ? parseToken(identifier) : null;
      if (!token?.system || !token.value) {
        throw new FhirError(400, 'invalid', `A conditional update needs ?identifier=system|value.`, ['identifier']);
      }
      const resource = validated<R>(request.body, type);
      const own = spec.fromResource(resource).identifier;
      if (own.system !== token.system || own.value !== token.value) {
        throw new FhirError(400, 'invalid', `${type}.identifier must carry the identifier of the address.`, [
          `${type}.identifier`,
        ]);
      }
      return answer(request, reply, await handleWrite(request, { kind: 'upsert' }));
    },
  );

  routes.put(`/${type}/:id`, { onRequest: write, schema: { tags: ['fhir'], params: idParams } }, async (request, reply) =>
    answer(request, reply, await handleWrite(request, { kind: 'update', id: request.params.id })),
  );

  routes.get(`/${type}/:id`, { onRequest: read, schema: { tags: ['fhir'], params: idParams } }, async (request, reply) => {
    const body = await readOne(systemOf(request).tenantId, request.params.id);
    if (!body) throw new FhirError(404, 'not-found', `${type}/${request.params.id} is not known.`);
    await auditRead(ctx.db, request, `fhir.${type}.read`, entityType, body.id);
    reply.header('etag', `W/"${body.meta.versionId}"`);
    return send(reply, body);
  });

  routes.get(`/${type}`, { onRequest: read, schema: { tags: ['fhir'], querystring: searchQuery } }, async (request, reply) => {
    const query = request.query as SearchQuery;
    const filter = recordFilter(query, spec.statuses);
    const page = { count: query._count, offset: query._offset };
    const { rows, total } = await spec.rows(ctx.db, systemOf(request).tenantId, filter, page);
    await auditRead(ctx.db, request, `fhir.${type}.search`, entityType, null, { total });
    return send(reply, searchset(request, ctx.base(request), type, rows.map(spec.toResource), total, page));
  });
}
