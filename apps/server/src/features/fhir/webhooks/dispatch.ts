/**
 * Dispatch: decisions in the outbox become one delivery per endpoint that asked for their event, each with its
 * FHIR message body built once (a retry sends the same bytes). One dispatcher at a time in the whole cluster
 * (an advisory lock), in outbox order, so a prescription's deliveries keep the order of its decisions.
 */
import { randomUUID } from 'node:crypto';
import { APPEAL_FILE_LINK_DAYS, APPEAL_SLOT_LABELS, type AppealSlot, isWebhookEvent } from '@hcp/contract';
import type { MedicationRequest, Task } from '@medplum/fhirtypes';
import type { Database, Executor } from '../../../db/client.ts';
import type { FileLinks } from '../../../lib/file-links.ts';
import { CATEGORY_OF_EVENT, type Decision, decisionMessage, decisionTask, type LinkedAttachment } from '../mapping/decision.ts';
import { toMedicationRequest } from '../mapping/medication-request.ts';
import { toTask } from '../mapping/task.ts';
import { prescriptionRows, taskRows } from '../records-repository.ts';
import { ONE } from '../repository.ts';
import { type KeptVersion, keepVersions } from '../versions-repository.ts';
import * as repo from './repository.ts';

/** An appeal's attachments, each behind a link that expires (the message is built once, so the link is fixed). */
async function attachmentsOf(db: Executor, decision: Decision, links: AttachmentLinks): Promise<LinkedAttachment[]> {
  const appealId = decision.event === 'appeal.submitted' ? decision.data.appealId : undefined;
  if (typeof appealId !== 'string') return [];
  const expiresAt = new Date(Date.now() + APPEAL_FILE_LINK_DAYS * 86_400_000);
  return (await repo.appealAttachments(db, appealId)).map((file) => ({
    url: links.url(links.baseUrl, file.id, expiresAt),
    contentType: file.contentType,
    size: file.sizeBytes,
    title: APPEAL_SLOT_LABELS[file.slot as AppealSlot] ?? 'Attachment',
    creation: file.createdAt.toISOString(),
  }));
}

export type AttachmentLinks = Pick<FileLinks, 'url'> & { baseUrl: string };

async function focusOf(
  db: Executor,
  row: repo.UndispatchedDecision,
  decision: Decision,
  answeredTaskId: string | undefined,
  links: AttachmentLinks,
  kept: KeptVersion[],
): Promise<Task | MedicationRequest> {
  if (decision.event === 'prescription.created') {
    const { rows } = await prescriptionRows(db, row.tenantId, { id: row.prescriptionId }, ONE);
    const prescription = rows[0];
    if (prescription) return toMedicationRequest(prescription);
  }
  const answered = answeredTaskId ? ((await taskRows(db, row.tenantId, { id: answeredTaskId }, ONE)).rows[0] ?? null) : null;
  if (answered) {
    // The pharmacy holds this version id from the message: it stays readable as a GET answered it now (_history).
    const read = toTask(answered);
    kept.push({
      tenantId: row.tenantId,
      type: 'Task',
      id: answered.id,
      versionId: read.meta?.versionId as string,
      resource: read,
    });
  }
  return decisionTask(decision, answered, await attachmentsOf(db, decision, links));
}

/** Dispatches up to `limit` decisions; answers how many were dispatched (0 when another instance holds the lock). */
export async function dispatchDecisions(db: Database, links: AttachmentLinks, limit = 200): Promise<number> {
  const { baseUrl } = links;
  return db.transaction(async (tx) => {
    if (!(await repo.tryDispatchLock(tx))) return 0;
    const rows = await repo.undispatched(tx, limit);
    if (rows.length === 0) return 0;
    const endpoints = await repo.enabledEndpoints(tx, [...new Set(rows.map((r) => r.tenantId))]);
    const answered = await repo.answeredTaskIds(
      tx,
      rows.flatMap((r) => {
        const category = isWebhookEvent(r.eventType) ? CATEGORY_OF_EVENT[r.eventType] : null;
        return category ? [{ prescriptionId: r.prescriptionId, category }] : [];
      }),
    );
    const deliveries: Parameters<typeof repo.insertDeliveries>[1] = [];
    const kept: KeptVersion[] = [];
    for (const row of rows) {
      if (!isWebhookEvent(row.eventType)) continue;
      const wanting = endpoints.filter((e) => e.tenantId === row.tenantId && e.events.includes(row.eventType));
      if (wanting.length === 0) continue;
      const decision: Decision = {
        id: row.id,
        event: row.eventType,
        timelineType: row.timelineType ?? '',
        data: row.data ?? {},
        at: row.at,
        prescriptionId: row.prescriptionId,
        patientId: row.patientId,
        prescriberId: row.prescriberId,
      };
      const category = CATEGORY_OF_EVENT[row.eventType];
      const focus = await focusOf(
        tx,
        row,
        decision,
        category ? answered.get(`${row.prescriptionId}|${category}`) : undefined,
        links,
        kept,
      );
      for (const endpoint of wanting) {
        const id = randomUUID();
        deliveries.push({
          id,
          endpointId: endpoint.id,
          outboxId: row.id,
          eventSeq: row.seq,
          eventType: row.eventType,
          prescriptionId: row.prescriptionId,
          body: JSON.stringify(decisionMessage(decision, id, focus, baseUrl)),
        });
      }
    }
    await repo.insertDeliveries(tx, deliveries);
    await keepVersions(tx, kept);
    await repo.markDispatched(
      tx,
      rows.map((r) => r.id),
    );
    return rows.length;
  });
}
