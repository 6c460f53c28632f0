import { apiPaths, earlierChartNotesSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * GET /api/mdo/v1/prescriptions/{id}/earlier-chart-notes (issue 23): the chart notes sent for this patient's earlier
 * prior authorizations, offered for reuse.
 */
export const getEarlierChartNotes = (prescriptionId: string, signal?: AbortSignal) =>
  api.request(apiPaths.earlierChartNotes(prescriptionId), { schema: earlierChartNotesSchema, signal });

export const earlierChartNotesQueryOptions = (prescriptionId: string) =>
  queryOptions({
    queryKey: ['earlier-chart-notes', prescriptionId],
    queryFn: ({ signal }) => getEarlierChartNotes(prescriptionId, signal),
    staleTime: 60_000,
  });

export const useEarlierChartNotes = (prescriptionId: string) => useQuery(earlierChartNotesQueryOptions(prescriptionId));
