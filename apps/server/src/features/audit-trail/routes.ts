/**
 * The audit trail for privacy officers (issue 49, decision 0061): reports, exports, reviews, the privacy officers
 * themselves, and checking the seals. Every route answers 404 to anyone who is not a privacy officer of the tenant.
 */
import {
  auditPatientSearchResponseSchema,
  auditPatientSearchSchema,
  auditUsersQuerySchema,
  auditUsersResponseSchema,
  chainReportSchema,
  findingReviewSchema,
  patientAccessExportQuerySchema,
  patientAccessQuerySchema,
  patientAccessReportSchema,
  privacyOfficerParamsSchema,
  privacyOfficersResponseSchema,
  privacyOfficerUpdateSchema,
  reviewNoteSchema,
  statusOkSchema,
  supportWindowParamsSchema,
  supportWindowsQuerySchema,
  supportWindowsResponseSchema,
  unusualAccessQuerySchema,
  unusualAccessResponseSchema,
  userActivityExportQuerySchema,
  userActivityQuerySchema,
  userActivityReportSchema,
} from '@hcp/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { AuditReviews } from './reviews.ts';
import type { AuditExport, AuditTrailService } from './service.ts';

const sendExport = (reply: FastifyReply, file: AuditExport) =>
  reply
    .type(file.contentType)
    .header('content-disposition', `attachment; filename="${file.fileName}"`)
    .header('cache-control', 'no-store')
    .send(file.body);

export const auditTrailRoutes: FastifyPluginAsyncZod<{
  reports: AuditTrailService;
  reviews: AuditReviews;
  verifyPerMinute: number;
}> = async (app, { reports, reviews, verifyPerMinute }) => {
  const tags = ['audit-trail'];
  const read = { onRequest: app.requireAuth };
  const write = { onRequest: app.requireAuth, preHandler: app.idempotent };
  const base = '/api/mdo/v1/audit-trail';
  const ok = { status: 'ok' as const };

  app.post(
    `${base}/patient-search`,
    { ...read, schema: { tags, body: auditPatientSearchSchema, response: { 200: auditPatientSearchResponseSchema } } },
    async (request) => reports.searchPatients(signedInContext(request), request.body.search),
  );

  app.get(
    `${base}/users`,
    { ...read, schema: { tags, querystring: auditUsersQuerySchema, response: { 200: auditUsersResponseSchema } } },
    async (request) => reports.users(signedInContext(request), request.query.search),
  );

  app.get(
    `${base}/patient-access`,
    { ...read, schema: { tags, querystring: patientAccessQuerySchema, response: { 200: patientAccessReportSchema } } },
    async (request) => reports.patientAccess(signedInContext(request), request.query),
  );

  app.get(
    `${base}/patient-access/export`,
    { ...read, schema: { tags, querystring: patientAccessExportQuerySchema, produces: ['text/csv', 'application/fhir+json'] } },
    async (request, reply) => sendExport(reply, await reports.exportPatientAccess(signedInContext(request), request.query)),
  );

  app.get(
    `${base}/user-activity`,
    { ...read, schema: { tags, querystring: userActivityQuerySchema, response: { 200: userActivityReportSchema } } },
    async (request) => reports.userActivity(signedInContext(request), request.query),
  );

  app.get(
    `${base}/user-activity/export`,
    { ...read, schema: { tags, querystring: userActivityExportQuerySchema, produces: ['text/csv', 'application/fhir+json'] } },
    async (request, reply) => sendExport(reply, await reports.exportUserActivity(signedInContext(request), request.query)),
  );

  app.get(
    `${base}/support-windows`,
    { ...read, schema: { tags, querystring: supportWindowsQuerySchema, response: { 200: supportWindowsResponseSchema } } },
    async (request) => reviews.supportWindows(signedInContext(request), request.query),
  );

  app.post(
    `${base}/support-windows/:windowId/review`,
    { ...write, schema: { tags, params: supportWindowParamsSchema, body: reviewNoteSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await reviews.reviewSupportWindow(signedInContext(request), request.params.windowId, request.body.note);
      return ok;
    },
  );

  app.get(
    `${base}/unusual-access`,
    { ...read, schema: { tags, querystring: unusualAccessQuerySchema, response: { 200: unusualAccessResponseSchema } } },
    async (request) => reviews.unusualAccess(signedInContext(request), request.query),
  );

  app.post(
    `${base}/findings/review`,
    { ...write, schema: { tags, body: findingReviewSchema, response: { 200: statusOkSchema } } },
    async (request) => {
      await reviews.reviewFinding(signedInContext(request), request.body);
      return ok;
    },
  );

  app.get(
    `${base}/privacy-officers`,
    { ...read, schema: { tags, response: { 200: privacyOfficersResponseSchema } } },
    async (request) => reviews.privacyOfficers(signedInContext(request)),
  );

  app.put(
    `${base}/privacy-officers/:userId`,
    {
      ...write,
      schema: { tags, params: privacyOfficerParamsSchema, body: privacyOfficerUpdateSchema, response: { 200: statusOkSchema } },
    },
    async (request) => {
      await reviews.setPrivacyOfficer(signedInContext(request), request.params.userId, request.body.privacyOfficer);
      return ok;
    },
  );

  app.post(
    `${base}/verify`,
    {
      ...read,
      // Walking the chain reads every sealed row: a few a minute is plenty.
      config: { rateLimit: { max: verifyPerMinute, timeWindow: '1 minute' } },
      schema: { tags, response: { 200: chainReportSchema } },
    },
    async (request) => reviews.verify(signedInContext(request)),
  );
};
