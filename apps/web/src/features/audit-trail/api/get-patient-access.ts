import { auditApiPaths, patientAccessReportSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys, type DateRange } from './keys.ts';

export type PatientAccessParams = DateRange & { patientId: string; page: number };

/** GET audit-trail/patient-access: who read and changed one patient's records, 50 a page, newest first. */
export const getPatientAccess = (q: PatientAccessParams, signal?: AbortSignal) =>
  api.request(auditApiPaths.patientAccess(q), { schema: patientAccessReportSchema, signal });

export const patientAccessOptions = (q: PatientAccessParams) =>
  queryOptions({ queryKey: auditKeys.patientAccess(q), queryFn: ({ signal }) => getPatientAccess(q, signal) });

export const usePatientAccess = (q: PatientAccessParams | null) =>
  useQuery({
    ...patientAccessOptions(q ?? { patientId: '', from: '', to: '', page: 1 }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
