/**
 * GET /api/pharmacy/v1/appeal-files/{fileId}?expires&signature: an attachment of a submitted appeal, fetched by the
 * pharmacy's systems through the expiring link its appeal message carried (lib/file-links.ts). A tampered link or
 * an unknown file is 404, an expired one 410; each read is audited like the prescriber's own downloads.
 */
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { FileLinks } from '../../lib/file-links.ts';
import type { AppealAttachments, OutgoingFile } from './attachments.ts';
import * as repo from './repository.ts';

export function createLinkedAppealFiles(deps: {
  db: Database;
  attachments: Pick<AppealAttachments, 'contentOf'>;
  links: FileLinks;
}) {
  return {
    async read(
      fileId: string,
      link: { expires: number; signature: string },
      ctx: { requestId: string; ip: string | null },
    ): Promise<OutgoingFile> {
      const check = deps.links.check(fileId, link.expires, link.signature, new Date());
      if (check === 'invalid') throw notFound('Attachment');
      if (check === 'expired')
        throw new AppError('GONE', 'This attachment link has expired. Ask for the appeal to be sent again.');
      const file = await repo.submittedFile(deps.db, fileId);
      if (!file) throw notFound('Attachment');
      const outgoing = await deps.attachments.contentOf(file);
      await writeAudit(deps.db, {
        actorUserId: null,
        action: 'appeal.file.read',
        entityType: 'appeal',
        entityId: file.appealId,
        requestId: ctx.requestId,
        ip: ctx.ip,
        details: { slot: file.slot, via: 'pharmacy-link' },
      });
      return outgoing;
    },
  };
}
export type LinkedAppealFiles = ReturnType<typeof createLinkedAppealFiles>;
