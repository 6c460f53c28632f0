/**
 * The FHIR R4 API at /fhir/R4 (issue 19): system tokens only (SMART Backend Services, decision 0022), each call
 * within the token's tenant and scopes, answers in application/fhir+json, failures as OperationOutcome, every
 * read and write audited with the client. Practices (Organization) and HCPs (Practitioner) are read-only; the
 * pharmacy writes Patient, MedicationRequest and Task (decision 0023).
 */
import { NPI_SYSTEM, PRACTICE_ID_SYSTEM, TASK_INBOUND_STATUSES } from '@hcp/contract';
import type { Resource } from '@medplum/fhirtypes';
import type { FastifyError, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { SystemTokens } from '../../lib/system-tokens.ts';
import { registerDepthLimitedJson } from '../../plugins/input-safety.ts';
import { communicationOps } from './communications.ts';
import {
  auditRead,
  FHIR_JSON,
  type FhirContext,
  idParams,
  requireScope,
  searchQuery,
  searchset,
  send,
  systemOf,
} from './http.ts';
import { parseToken } from './mapping/common.ts';
import { fromCommunication, toCommunication } from './mapping/communication.ts';
import { toOrganization, toPractitioner, toPractitionerRole } from './mapping/directory.ts';
import { fromMedicationRequest, toMedicationRequest } from './mapping/medication-request.ts';
import { fromPatient, toPatient } from './mapping/patient.ts';
import { fromTask, toTask } from './mapping/task.ts';
import { medicationRequestOps } from './medication-requests.ts';
import { FhirError, operationOutcome } from './outcome.ts';
import { patientOps } from './patients.ts';
import { registerWrittenType, type WrittenType } from './record-routes.ts';
import * as records from './records-repository.ts';
import * as repo from './repository.ts';
import { appliedParams, capabilityParams } from './search-params.ts';
import { taskOps } from './tasks.ts';
import { registerTransactions } from './transaction.ts';

const WRITTEN_TYPES = ['Patient', 'MedicationRequest', 'Task', 'Communication'] as const;

export const fhirRoutes: FastifyPluginAsyncZod<{ db: Database; tokens: SystemTokens; publicUrl: string | undefined }> = async (
  app,
  { db, tokens, publicUrl },
) => {
  const base = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}/fhir/R4`;
  const ctx: FhirContext = { db, tokens, base };
  app.decorateRequest('system', null);
  // FHIR clients send application/fhir+json; parsed like JSON (depth first), prototype-poisoning keys refused.
  registerDepthLimitedJson(app, ['application/fhir+json', 'application/json+fhir']);

  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof FhirError) {
      if (error.statusCode === 401) reply.header('www-authenticate', 'Bearer realm="fhir", error="invalid_token"');
      return reply
        .code(error.statusCode)
        .type(FHIR_JSON)
        .send(operationOutcome(error.code, error.message, error.expression));
    }
    if (error instanceof AppError && error.statusCode === 400) {
      // The portal-wide input rules (too deep, unsafe characters): said as FHIR says a client's error.
      const expression = error.details.map((d) => d.path);
      return reply
        .code(400)
        .type(FHIR_JSON)
        .send(operationOutcome('invalid', error.message, expression));
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
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
      // Unparseable JSON, an unsupported media type, a body over the limit: the client's to fix.
      const message =
        error.statusCode === 415
          ? 'Send application/fhir+json.'
          : error.statusCode === 413
            ? 'The body is too large.'
            : 'The request body is not valid JSON.';
      return reply.code(error.statusCode).type(FHIR_JSON).send(operationOutcome('invalid', message));
    }
    request.log.error({ err: error }, 'unhandled FHIR error');
    return reply.code(500).type(FHIR_JSON).send(operationOutcome('exception', 'Something went wrong on our side.'));
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type(FHIR_JSON).send(operationOutcome('not-supported', 'This FHIR interaction is not supported here.')),
  );

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
          interaction: [{ code: 'transaction', documentation: 'All entries commit together or none does.' }],
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
          resource: [
            ...(['Organization', 'Practitioner'] as const).map((type) => ({
              type,
              interaction: [{ code: 'read' }, { code: 'search-type' }],
              searchParam: capabilityParams(type),
            })),
            {
              type: 'PractitionerRole',
              interaction: [{ code: 'search-type' }],
              searchParam: capabilityParams('PractitionerRole'),
            },
            ...WRITTEN_TYPES.map((type) => ({
              type,
              versioning: 'versioned-update',
              conditionalCreate: false,
              conditionalUpdate: true,
              interaction: ['read', 'vread', 'create', 'update', 'search-type'].map((code) => ({ code })),
              searchParam: capabilityParams(type),
            })),
          ],
        },
      ],
    }),
  );

  /**
   * Read (`/<type>/:id`) and search (`/<type>?identifier=…`) of one resource type: the token's tenant and scope,
   * the repository's rows by id or by the identifier's filter, mapped to FHIR, audited with the client.
   */
  function readAndSearch<Row extends { id: string }, Filter extends object>(resource: {
    type: 'Organization' | 'Practitioner';
    entityType: string;
    rows: (
      tenantId: string,
      filter: Filter | { id: string } | { ids?: string[] } | Record<string, never>,
      page: repo.Page,
    ) => Promise<{ rows: Row[]; total: number }>;
    identifiers: Record<string, (value: string) => Filter>;
    map: (row: Row) => { id: string };
  }) {
    const { type, entityType } = resource;
    app.get(
      `/${type}/:id`,
      { onRequest: requireScope(tokens, type, 'read'), schema: { tags: ['fhir'], params: idParams } },
      async (request, reply) => {
        const id = request.params.id;
        const row = (await resource.rows(systemOf(request).tenantId, { id }, { count: 1, offset: 0 })).rows[0];
        if (!row) throw new FhirError(404, 'not-found', `${type}/${id} is not known.`);
        await auditRead(db, request, `fhir.${type}.read`, entityType, row.id);
        return send(reply, resource.map(row));
      },
    );
    app.get(
      `/${type}`,
      { onRequest: requireScope(tokens, type, 'read'), schema: { tags: ['fhir'], querystring: searchQuery } },
      async (request, reply) => {
        const { identifier, _id, _count: count, _offset: offset } = request.query;
        const applied = appliedParams(request, type);
        const filter = {
          ...(applied.has('identifier') ? identifierFilter(identifier, resource.identifiers) : {}),
          ...(applied.has('_id') && _id !== undefined ? { ids: _id.split(',').map((id) => id.trim()) } : {}),
        };
        const { rows, total } = await resource.rows(systemOf(request).tenantId, filter, { count, offset });
        await auditRead(db, request, `fhir.${type}.search`, entityType, null, { total });
        return send(reply, searchset(applied, base(request), type, rows.map(resource.map), total, { count, offset }));
      },
    );
  }

  readAndSearch({
    type: 'Organization',
    entityType: 'md_office',
    rows: (tenantId, filter: { id?: string; ids?: string[] }, page) => repo.practices(db, tenantId, filter, page),
    identifiers: { [PRACTICE_ID_SYSTEM]: (value) => ({ id: value }) },
    map: toOrganization,
  });
  readAndSearch({
    type: 'Practitioner',
    entityType: 'md_staff',
    rows: (tenantId, filter: { id?: string; ids?: string[]; npi?: string }, page) =>
      repo.practitioners(db, tenantId, filter, page),
    identifiers: { [NPI_SYSTEM]: (value) => ({ npi: value }) },
    map: toPractitioner,
  });

  /** Who works where: `PractitionerRole?organization=Organization/<id>` lists a practice's prescribers and staff. */
  const roleQuery = searchQuery.pick({ _count: true, _offset: true }).extend({
    organization: z.string().max(200).optional(),
    practitioner: z.string().max(200).optional(),
  });
  app.get(
    '/PractitionerRole',
    { onRequest: requireScope(tokens, 'PractitionerRole', 'read'), schema: { tags: ['fhir'], querystring: roleQuery } },
    async (request, reply) => {
      const { organization, practitioner, _count: count, _offset: offset } = request.query;
      const applied = appliedParams(request, 'PractitionerRole');
      const filter = {
        ...(organization !== undefined ? { practiceId: organization.replace(/^Organization\//, '') } : {}),
        ...(practitioner !== undefined ? { staffId: practitioner.replace(/^Practitioner\//, '') } : {}),
      };
      const { rows, total } = await repo.practitionerRoles(db, systemOf(request).tenantId, filter, { count, offset });
      await auditRead(db, request, 'fhir.PractitionerRole.search', 'md_staff', null, { total });
      return send(
        reply,
        searchset(applied, base(request), 'PractitionerRole', rows.map(toPractitionerRole), total, { count, offset }),
      );
    },
  );

  // biome-ignore lint/suspicious/noExplicitAny: specs of different resource types in one map, each used with its own.
  const written = new Map<string, WrittenType<any, any, any>>();
  const register = <R extends Resource, Row extends { id: string }, Fields>(spec: WrittenType<R, Row, Fields>) => {
    registerWrittenType(app, ctx, spec);
    written.set(spec.type, spec);
  };
  register({
    type: 'Patient',
    entityType: 'patient',
    statuses: null,
    rows: records.patientRows,
    toResource: toPatient,
    fromResource: fromPatient,
    ops: (request) => patientOps(systemOf(request).tenantId),
  });
  register({
    type: 'MedicationRequest',
    entityType: 'prescription',
    statuses: null,
    rows: records.prescriptionRows,
    toResource: toMedicationRequest,
    fromResource: fromMedicationRequest,
    ops: (request, identifier) => medicationRequestOps(systemOf(request).tenantId, identifier, request.id),
  });
  register({
    type: 'Task',
    entityType: 'prescription-task',
    statuses: [...TASK_INBOUND_STATUSES],
    rows: records.taskRows,
    toResource: toTask,
    fromResource: fromTask,
    ops: (request) =>
      taskOps(systemOf(request).tenantId, systemOf(request).clientId, request.id, base(request).replace(/\/fhir\/R4$/, '')),
  });
  register({
    type: 'Communication',
    entityType: 'comment',
    statuses: null,
    rows: records.commentRows,
    toResource: toCommunication,
    fromResource: fromCommunication,
    ops: (request) => communicationOps(systemOf(request).tenantId),
  });
  registerTransactions(app, ctx, written);
};
