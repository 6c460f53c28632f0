/** Manage Communications calls of spec §7 ("Practices, staff and users"), plus removing a person from a practice. */
import {
  addOfficeStaffSchema,
  deletedSchema,
  mdOfficeCommPrefsSchema,
  mdOfficeInputSchema,
  mdOfficeSchema,
  mdOfficeSearchResponseSchema,
  mdPartnerCommPrefsSchema,
  mdStaffSchema,
  mdStaffSearchResponseSchema,
  mdStaffUpdateSchema,
  myPracticesSchema,
  officeStaffListSchema,
  pagedQuerySchema,
  refId,
  salesListSchema,
  selfParamsSchema,
} from '@hcp/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { ManageCommsService } from './service.ts';

export const manageCommsRoutes: FastifyPluginAsyncZod<{ service: ManageCommsService }> = async (app, { service }) => {
  const tags = ['manage-comms'];
  // Sign-in is checked before the input (a stranger learns nothing from validation messages).
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const officeParams = z.object({ id: refId('practice') });
  const staffParams = z.object({ id: refId('hcp') });
  const v1 = '/api/mdo/v1';

  app.get(
    `${v1}/md-offices-search`,
    { ...read, schema: { tags, querystring: pagedQuerySchema, response: { 200: mdOfficeSearchResponseSchema } } },
    async (request) => service.searchOffices(signedInContext(request), request.query),
  );

  app.post(
    `${v1}/md-offices`,
    { ...write, schema: { tags, body: mdOfficeInputSchema, response: { 201: mdOfficeSchema } } },
    async (request, reply) => reply.code(201).send(await service.createOffice(signedInContext(request), request.body)),
  );

  app.get(
    `${v1}/md-offices/:id`,
    { ...read, schema: { tags, params: officeParams, response: { 200: mdOfficeSchema } } },
    async (request) => service.getOffice(signedInContext(request), request.params.id),
  );

  app.put(
    `${v1}/md-offices/:id`,
    { ...write, schema: { tags, params: officeParams, body: mdOfficeInputSchema, response: { 200: mdOfficeSchema } } },
    async (request) => service.updateOffice(signedInContext(request), request.params.id, request.body),
  );

  app.delete(
    `${v1}/md-offices/:id`,
    { ...write, schema: { tags, params: officeParams, response: { 200: deletedSchema } } },
    async (request) => service.deleteOffice(signedInContext(request), request.params.id),
  );

  app.put(
    `${v1}/md-offices/:id/comm-prefs`,
    { ...write, schema: { tags, params: officeParams, body: mdOfficeCommPrefsSchema, response: { 200: mdOfficeSchema } } },
    async (request) => service.updateOfficeCommPrefs(signedInContext(request), request.params.id, request.body),
  );

  app.get(
    `${v1}/md-offices/:id/staff`,
    { ...read, schema: { tags, params: officeParams, response: { 200: officeStaffListSchema } } },
    async (request) => service.listOfficeStaff(signedInContext(request), request.params.id),
  );

  app.post(
    `${v1}/md-offices/:id/staff`,
    { ...write, schema: { tags, params: officeParams, body: addOfficeStaffSchema, response: { 200: mdStaffSchema } } },
    async (request) => service.addOfficeStaff(signedInContext(request), request.params.id, request.body),
  );

  app.delete(
    `${v1}/md-offices/:id/staff/:staffId`,
    {
      ...write,
      schema: {
        tags,
        params: officeParams.extend({ staffId: refId('hcp', { of: 'id' }) }),
        response: { 200: deletedSchema },
      },
    },
    async (request) => service.removeOfficeStaff(signedInContext(request), request.params.id, request.params.staffId),
  );

  app.get(
    `${v1}/staff`,
    { ...read, schema: { tags, querystring: pagedQuerySchema, response: { 200: mdStaffSearchResponseSchema } } },
    async (request) => service.searchStaff(signedInContext(request), request.query),
  );

  app.get(
    `${v1}/staff/:id`,
    { ...read, schema: { tags, params: staffParams, response: { 200: mdStaffSchema } } },
    async (request) => service.getStaff(signedInContext(request), request.params.id),
  );

  app.put(
    `${v1}/md-staff/:id`,
    { ...write, schema: { tags, params: staffParams, body: mdStaffUpdateSchema, response: { 200: mdStaffSchema } } },
    async (request) => service.updateStaff(signedInContext(request), request.params.id, request.body),
  );

  app.delete(
    `${v1}/md-staff/:id`,
    { ...write, schema: { tags, params: staffParams, response: { 200: deletedSchema } } },
    async (request) => service.deleteStaff(signedInContext(request), request.params.id),
  );

  app.put(
    `${v1}/md-partner/:id/comm-prefs`,
    { ...write, schema: { tags, params: staffParams, body: mdPartnerCommPrefsSchema, response: { 200: mdStaffSchema } } },
    async (request) => service.updatePartnerCommPrefs(signedInContext(request), request.params.id, request.body),
  );

  app.get(
    `${v1}/users/:userId/practices`,
    { ...read, schema: { tags, params: selfParamsSchema, response: { 200: myPracticesSchema } } },
    async (request) => service.myPractices(signedInContext(request, request.params.userId)),
  );

  app.get(`${v1}/sales-list`, { ...read, schema: { tags, response: { 200: salesListSchema } } }, async (request) =>
    service.salesList(signedInContext(request)),
  );
};
