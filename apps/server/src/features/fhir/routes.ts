/**
 * The FHIR R4 API at /fhir/R4 (issue 19): system tokens only (SMART Backend Services, decision 0022), each call
 * within the token's tenant and scopes, answers in application/fhir+json, failures as OperationOutcome, every
 * read audited with the client. This slice serves the CapabilityStatement and reads and searches practices
 * (Organization) and HCPs (Practitioner, by NPI); writes (Task, MedicationRequest, …) come next.
 */
import { scopeCovers } from '@hcp/contract';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import type { SystemClaims, SystemTokens } from '../../lib/system-tokens.ts';
import { NPI_SYSTEM, PRACTICE_ID_SYSTEM, parseToken, toOrganization, toPractitioner } from './mapping.ts';
import { FhirError, operationOutcome } from './outcome.ts';
import * as repo from './repository.ts';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

declare module 'fastify' {
  interface FastifyRequest {
    system: SystemClaims | null;
  }
}

const searchQuery = z.object({
  identifier: z.string().max(300).optional(),
  _count: z.coerce.number().int().min(1).max(100).default(20),
  _offset: z.coerce.number().int().min(0).max(100_000).default(0),
});
const idParams = z.object({ id: z.string().max(64) });

export const fhirRoutes: FastifyPluginAsyncZod<{ db: Database; tokens: SystemTokens; publicUrl: string | undefined }> = async (
  app,
  { db, tokens, publicUrl },
) => {
  const base = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}/fhir/R4`;
  app.decorateRequest('system', null);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof FhirError) {
      if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer realm="fhir", error="invalid_token"');
      return reply
        .code(error.statusCode)
        .type(FHIR_JSON)
        .send(operationOutcome(error.code, error.message, error.expression));
    }
    if (error.validation) {
      const expression = error.validation.map((v) =>
        String(v.instancePath || v.params?.missingProperty || '').replace(/^\//, ''),
      );
      return reply
        .code(400)
        .type(FHIR_JSON)
        .send(operationOutcome('invalid', 'Invalid search or request parameters.', expression));
    }
    if (error.statusCode === 429)
      return reply.code(429).type(FHIR_JSON).send(operationOutcome('throttled', 'Too many requests.'));
    request.log.error({ err: error }, 'unhandled FHIR error');
    return reply.code(500).type(FHIR_JSON).send(operationOutcome('exception', 'Something went wrong on our side.'));
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type(FHIR_JSON).send(operationOutcome('not-supported', 'This FHIR interaction is not supported here.')),
  );

  /** A system token whose scopes cover `<type>.read` (user sessions never pass: another audience). */
  const requireScope = (type: string, access: 'read' | 'write') => async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    const claims =
      typeof header === 'string' && header.startsWith('Bearer ') ? await tokens.verify(header.slice(7).trim()) : null;
    if (!claims) throw new FhirError(401, 'login', 'A valid system access token is required (SMART Backend Services).');
    const wanted = `system/${type}.${access}`;
    if (!claims.scopes.some((granted) => scopeCovers(granted, wanted))) {
      throw new FhirError(403, 'forbidden', `The token's scopes do not include ${wanted}.`);
    }
    request.system = claims;
  };
  const systemOf = (request: FastifyRequest) => request.system as SystemClaims;
  const audit = (request: FastifyRequest, action: string, entityType: string, entityId: string | null, details = {}) =>
    writeAudit(db, {
      actorUserId: null,
      action,
      entityType,
      entityId,
      requestId: request.id,
      ip: request.ip ?? null,
      details: { clientId: systemOf(request).clientId, ...details },
    });
  const send = (reply: FastifyReply, body: unknown) => reply.type(FHIR_JSON).send(body);

  function searchset(
    request: FastifyRequest,
    type: string,
    resources: { id: string }[],
    total: number,
    page: { count: number; offset: number },
  ) {
    const url = (offset: number) => {
      const params = new URLSearchParams(request.query as Record<string, string>);
      params.set('_count', String(page.count));
      params.set('_offset', String(offset));
      return `${base(request)}/${type}?${params}`;
    };
    return {
      resourceType: 'Bundle',
      type: 'searchset',
      total,
      link: [
        { relation: 'self', url: url(page.offset) },
        ...(page.offset + page.count < total ? [{ relation: 'next', url: url(page.offset + page.count) }] : []),
      ],
      entry: resources.map((resource) => ({
        fullUrl: `${base(request)}/${type}/${resource.id}`,
        resource,
        search: { mode: 'match' },
      })),
    };
  }

  /** The identifier token of a search as the repository's filter, or a 400 naming the parameter. */
  function identifierFilter<F>(
    param: string | undefined,
    systems: Record<string, (value: string) => F>,
  ): F | Record<string, never> {
    if (param === undefined) return {};
    const { system, value } = parseToken(param);
    const known = system ? systems[system] : Object.values(systems)[0];
    if (!known) throw new FhirError(400, 'not-supported', `Unknown identifier system ${system}.`, ['identifier']);
    return known(value);
  }

  app.get('/metadata', { schema: { tags: ['fhir'] } }, async (request, reply) =>
    send(reply, {
      resourceType: 'CapabilityStatement',
      status: 'active',
      date: '2026-11-24',
      kind: 'instance',
      fhirVersion: '4.0.1',
      format: ['application/fhir+json'],
      implementation: { description: 'HCP Portal FHIR API', url: base(request) },
      rest: [
        {
          mode: 'server',
          security: {
            service: [
              { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/restful-security-service', code: 'SMART-on-FHIR' }] },
            ],
            extension: [
              {
                url: 'http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris',
                extension: [{ url: 'token', valueUri: `${base(request).replace(/\/fhir\/R4$/, '')}/oauth2/token` }],
              },
            ],
          },
          resource: ['Organization', 'Practitioner'].map((type) => ({
            type,
            interaction: [{ code: 'read' }, { code: 'search-type' }],
            searchParam: [
              { name: 'identifier', type: 'token' },
              { name: '_count', type: 'number' },
            ],
          })),
        },
      ],
    }),
  );

  /**
   * Read (`/<type>/:id`) and search (`/<type>?identifier=…`) of one resource type: the token's tenant and scope,
   * the repository's rows by id or by the identifier's filter, mapped to FHIR, audited with the client.
   */
  function readAndSearch<Row extends { id: string }, Filter extends object>(resource: {
    type: string;
    entityType: string;
    rows: (
      tenantId: string,
      filter: Filter | { id: string } | Record<string, never>,
      page: repo.Page,
    ) => Promise<{ rows: Row[]; total: number }>;
    identifiers: Record<string, (value: string) => Filter>;
    map: (row: Row) => { id: string };
  }) {
    const { type, entityType } = resource;
    app.get(
      `/${type}/:id`,
      { onRequest: requireScope(type, 'read'), schema: { tags: ['fhir'], params: idParams } },
      async (request, reply) => {
        const id = request.params.id;
        const row = (await resource.rows(systemOf(request).tenantId, { id }, { count: 1, offset: 0 })).rows[0];
        if (!row) throw new FhirError(404, 'not-found', `${type}/${id} is not known.`);
        await audit(request, `fhir.${type}.read`, entityType, row.id);
        return send(reply, resource.map(row));
      },
    );
    app.get(
      `/${type}`,
      { onRequest: requireScope(type, 'read'), schema: { tags: ['fhir'], querystring: searchQuery } },
      async (request, reply) => {
        const { identifier, _count: count, _offset: offset } = request.query;
        const filter = identifierFilter(identifier, resource.identifiers);
        const { rows, total } = await resource.rows(systemOf(request).tenantId, filter, { count, offset });
        await audit(request, `fhir.${type}.search`, entityType, null, { total });
        return send(reply, searchset(request, type, rows.map(resource.map), total, { count, offset }));
      },
    );
  }

  readAndSearch({
    type: 'Organization',
    entityType: 'md_office',
    rows: (tenantId, filter: { id?: string }, page) => repo.practices(db, tenantId, filter, page),
    identifiers: { [PRACTICE_ID_SYSTEM]: (value) => ({ id: value }) },
    map: toOrganization,
  });
  readAndSearch({
    type: 'Practitioner',
    entityType: 'md_staff',
    rows: (tenantId, filter: { id?: string; npi?: string }, page) => repo.practitioners(db, tenantId, filter, page),
    identifiers: { [NPI_SYSTEM]: (value) => ({ npi: value }) },
    map: toPractitioner,
  });
};
