import { auditApiPaths, auditPatientSearchResponseSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys } from './keys.ts';

/** POST audit-trail/patient-search: the tenant's patients by name or date of birth (the text in the body, not a URL). */
export const searchAuditPatients = (search: string, signal?: AbortSignal) =>
  api.request(auditApiPaths.patientSearch, {
    method: 'POST',
    body: { search },
    schema: auditPatientSearchResponseSchema,
    signal,
  });

export const auditPatientSearchOptions = (search: string) =>
  queryOptions({ queryKey: auditKeys.patientSearch(search), queryFn: ({ signal }) => searchAuditPatients(search, signal) });

export const useAuditPatientSearch = (search: string) =>
  useQuery({ ...auditPatientSearchOptions(search), enabled: search.length >= 2 });
