/** Appeals calls of spec §7 (appeal-auth, file-upload, save, submit) plus reading an appeal again after a reload. */

import multipart from '@fastify/multipart';
import {
  APPEAL_FILE_LINK_PATH,
  APPEAL_FILE_MAX_BYTES,
  APPEAL_SLOTS,
  APPEAL_TOKEN_HEADER,
  APPEAL_TOTAL_MAX_BYTES,
  appealAuthRequestSchema,
  appealAuthResponseSchema,
  appealDraftSchema,
  appealFileLinkQuerySchema,
  appealPortalAuthRequestSchema,
  appealSchema,
  earlierAppealFilesSchema,
  refId,
  reuseAppealFileSchema,
  selfParamsSchema,
} from '@hcp/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { signedInContext } from '../../lib/route-helpers.ts';
import type { OutgoingFile } from './attachments.ts';
import type { LinkedAppealFiles } from './linked-files.ts';
import { uploadedFiles } from './multipart-files.ts';
import type { AppealsService } from './service.ts';

/** A file name as an RFC 5987 value (encodeURIComponent leaves ' ( ) * as they are, which that syntax does not allow). */
const rfc5987 = (name: string) =>
  encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Always a download with our sniffed type, never rendered inline by the browser on our origin. */
const sendDownload = (reply: FastifyReply, file: OutgoingFile) =>
  reply
    .type(file.contentType)
    .header('content-length', String(file.sizeBytes))
    .header('content-disposition', `attachment; filename*=UTF-8''${rfc5987(file.name)}`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.content);

export const appealsRoutes: FastifyPluginAsyncZod<{
  service: AppealsService;
  linkedFiles: LinkedAppealFiles;
  authPerMinute: number;
}> = async (app, { service, linkedFiles, authPerMinute }) => {
  const tags = ['appeals'];
  const params = z.object({ id: refId('appeal') });
  const tokenOf = (headers: Record<string, unknown>) => {
    const value = headers[APPEAL_TOKEN_HEADER];
    return typeof value === 'string' ? value : undefined;
  };
  const ctxOf = (request: { id: string; ip?: string }) => ({ requestId: request.id, ip: request.ip ?? null });

  app.post(
    '/api/mdo/v1/appeal-auth',
    {
      config: { rateLimit: { max: authPerMinute, timeWindow: '1 minute' } },
      schema: { tags, body: appealAuthRequestSchema, response: { 200: appealAuthResponseSchema } },
    },
    async (request) => service.authenticate(request.body, ctxOf(request)),
  );

  app.post(
    '/api/mdo/v1/users/:userId/appeal-auth',
    {
      onRequest: app.requireAuth,
      schema: {
        tags,
        params: selfParamsSchema,
        body: appealPortalAuthRequestSchema,
        response: { 200: appealAuthResponseSchema },
      },
    },
    async (request) => service.authenticateInPortal(signedInContext(request, request.params.userId), request.body),
  );

  const fileParams = params.extend({ slot: z.enum(APPEAL_SLOTS, { message: 'Unknown attachment slot.' }) });
  app.get(
    '/api/mdo/v1/appeal/:id/files/:slot',
    { schema: { tags, params: fileParams, produces: ['application/octet-stream'] } },
    async (request, reply) => {
      const file = await service.download(tokenOf(request.headers), request.params.id, request.params.slot, ctxOf(request));
      return sendDownload(reply, file);
    },
  );

  app.get(
    APPEAL_FILE_LINK_PATH,
    {
      config: { rateLimit: { max: authPerMinute * 10, timeWindow: '1 minute' } },
      schema: {
        tags,
        description: 'An attachment of a submitted appeal, by the expiring link in its message to the pharmacy.',
        params: z.object({ fileId: refId('file') }),
        querystring: appealFileLinkQuerySchema,
        produces: ['application/octet-stream'],
      },
    },
    async (request, reply) => {
      const file = await linkedFiles.read(request.params.fileId, request.query, ctxOf(request));
      return sendDownload(reply, file);
    },
  );

  app.delete(
    '/api/mdo/v1/appeal/:id/files/:slot',
    { schema: { tags, params: fileParams, response: { 200: appealSchema } } },
    async (request) => service.removeFile(tokenOf(request.headers), request.params.id, request.params.slot, ctxOf(request)),
  );

  app.get(
    '/api/mdo/v1/appeal/:id/earlier-files',
    { schema: { tags, params, response: { 200: earlierAppealFilesSchema } } },
    async (request) => ({ records: await service.earlierFiles(tokenOf(request.headers), request.params.id, ctxOf(request)) }),
  );

  app.post(
    '/api/mdo/v1/appeal/:id/reuse-file',
    { schema: { tags, params, body: reuseAppealFileSchema, response: { 200: appealSchema } } },
    async (request) => service.reuseFile(tokenOf(request.headers), request.params.id, request.body, ctxOf(request)),
  );

  app.get('/api/mdo/v1/appeal/:id', { schema: { tags, params, response: { 200: appealSchema } } }, async (request) =>
    service.read(tokenOf(request.headers), request.params.id, ctxOf(request)),
  );

  // Multipart only for these routes: one file per slot, each read up to the per-file limit (+1 byte to notice more).
  await app.register(multipart, {
    limits: { fileSize: APPEAL_FILE_MAX_BYTES, files: APPEAL_SLOTS.length, fields: 0, parts: APPEAL_SLOTS.length },
    throwFileSizeLimit: false,
  });

  app.post(
    '/api/mdo/v1/appeal/:id/file-upload',
    {
      bodyLimit: APPEAL_TOTAL_MAX_BYTES + 1024 * 1024,
      schema: { tags, params, consumes: ['multipart/form-data'], response: { 200: appealSchema } },
    },
    async (request) => {
      if (!request.isMultipart()) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'Send the files as multipart/form-data.');
      // Each part streams into storage as it arrives (the service checks it on the way).
      const files = uploadedFiles(request.headers['content-type'], () => request.files());
      return service.upload(tokenOf(request.headers), request.params.id, files, ctxOf(request));
    },
  );

  app.post('/api/mdo/v1/appeal/:id/submit', { schema: { tags, params, response: { 200: appealSchema } } }, async (request) =>
    service.submit(tokenOf(request.headers), request.params.id, ctxOf(request)),
  );

  app.post(
    '/api/mdo/v1/appeal/:id/save',
    { schema: { tags, params, body: appealDraftSchema, response: { 200: appealSchema } } },
    async (request) => service.saveDraft(tokenOf(request.headers), request.params.id, request.body, ctxOf(request)),
  );
};
