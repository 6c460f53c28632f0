import { apiPaths, prescriptionEventsSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/mdo/v1/prescriptions/{id}/events: the prescription's timeline (our addition). */
export const getPrescriptionEvents = (prescriptionId: string, signal?: AbortSignal) =>
  api.request(apiPaths.prescriptionEvents(prescriptionId), { schema: prescriptionEventsSchema, signal });

export const prescriptionEventsQueryOptions = (prescriptionId: string) =>
  queryOptions({
    queryKey: ['prescription-events', prescriptionId],
    queryFn: ({ signal }) => getPrescriptionEvents(prescriptionId, signal),
    staleTime: 0,
  });

export const usePrescriptionEvents = (prescriptionId: string) => useQuery(prescriptionEventsQueryOptions(prescriptionId));
