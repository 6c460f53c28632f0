import { apiPaths, supportAccessLogSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET md-offices/{id}/support-access: who of the provider opened read-only access to this practice, and why. */
export const getSupportAccessLog = (officeId: string, signal?: AbortSignal) =>
  api.request(apiPaths.practiceSupportAccessLog(officeId), { schema: supportAccessLogSchema, signal });

export const supportAccessLogQueryOptions = (officeId: string) =>
  queryOptions({
    queryKey: ['md-offices', officeId, 'support-access'],
    queryFn: ({ signal }) => getSupportAccessLog(officeId, signal),
  });

export const useSupportAccessLog = (officeId: string) => useQuery(supportAccessLogQueryOptions(officeId));
