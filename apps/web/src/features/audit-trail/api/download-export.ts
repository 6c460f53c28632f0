import { type AuditExportFormat, auditApiPaths } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { DateRange } from './keys.ts';

/** Which report and whose: the rows a file holds. */
export type ExportTarget = DateRange &
  ({ report: 'patient-access'; patientId: string } | { report: 'user-activity'; userId: string });
export type ExportRequest = ExportTarget & { format: AuditExportFormat };

/** GET audit-trail/{report}/export: the report's rows as CSV or a FHIR AuditEvent Bundle (at most 10,000). */
export const downloadAuditExport = (request: ExportRequest) =>
  api.request(
    request.report === 'patient-access'
      ? auditApiPaths.patientAccessExport({
          patientId: request.patientId,
          from: request.from,
          to: request.to,
          format: request.format,
        })
      : auditApiPaths.userActivityExport({ userId: request.userId, from: request.from, to: request.to, format: request.format }),
    { as: 'blob' },
  ) as Promise<Blob>;

/** Downloads the file under a name with the report and the dates (never a patient's name). */
export function useAuditExport() {
  return useMutation({
    mutationFn: async (request: ExportRequest) => {
      const blob = await downloadAuditExport(request);
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `${request.report}-${request.from}-${request.to}.${request.format === 'csv' ? 'csv' : 'json'}`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
  });
}
