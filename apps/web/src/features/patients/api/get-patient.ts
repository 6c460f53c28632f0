import { apiPaths, patientDetailSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/mdo/v1/users/{userId}/patients/{patientId}: demographics and every prescription. */
export const getPatient = (userId: string, patientId: string, signal?: AbortSignal) =>
  api.request(apiPaths.patientDetail(userId, patientId), { schema: patientDetailSchema, signal });

export const patientQueryOptions = (userId: string, patientId: string) =>
  queryOptions({
    queryKey: ['patients', userId, 'detail', patientId],
    queryFn: ({ signal }) => getPatient(userId, patientId, signal),
  });

export const usePatient = (userId: string, patientId: string) => useQuery(patientQueryOptions(userId, patientId));
