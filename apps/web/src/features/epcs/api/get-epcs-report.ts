import { epcsApiPaths, epcsReportSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET practices/{id}/epcs-report?day=: a day's controlled prescriptions signed and incidents (21 CFR 1311.215). */
export const getEpcsReport = (practiceId: string, day: string, signal?: AbortSignal) =>
  api.request(epcsApiPaths.epcsReport(practiceId, day), { schema: epcsReportSchema, signal });

export const epcsReportQueryOptions = (practiceId: string, day: string) =>
  queryOptions({
    queryKey: ['epcs', 'report', practiceId, day] as const,
    queryFn: ({ signal }) => getEpcsReport(practiceId, day, signal),
  });

export const useEpcsReport = (practiceId: string, day: string | null) =>
  useQuery({ ...epcsReportQueryOptions(practiceId, day ?? ''), enabled: day !== null });
