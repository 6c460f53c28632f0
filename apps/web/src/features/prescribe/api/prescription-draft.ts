import { prescribeApiPaths, prescriptionDraftSchema } from '@hcp/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/mdo/v1/users/{id}/prescription-draft: the prescriber's unsent prescription, if any. */
export const getPrescriptionDraft = (userId: string, signal?: AbortSignal) =>
  api.request(prescribeApiPaths.prescriptionDraft(userId), { schema: prescriptionDraftSchema, signal });

export const prescriptionDraftQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: ['prescription-draft', userId],
    queryFn: ({ signal }) => getPrescriptionDraft(userId, signal),
    staleTime: 0,
  });

export const usePrescriptionDraft = (userId: string) => useQuery(prescriptionDraftQueryOptions(userId));

/** PUT (keep) or DELETE (discard) the draft. */
export const savePrescriptionDraft = (userId: string, draft: Record<string, unknown>) =>
  api.request(prescribeApiPaths.prescriptionDraft(userId), { method: 'PUT', body: { draft }, schema: prescriptionDraftSchema });
export const discardPrescriptionDraft = (userId: string) =>
  api.request(prescribeApiPaths.prescriptionDraft(userId), { method: 'DELETE', schema: prescriptionDraftSchema });

export const useSavePrescriptionDraft = (userId: string) =>
  useMutation({ mutationFn: (draft: Record<string, unknown>) => savePrescriptionDraft(userId, draft) });
export const useDiscardPrescriptionDraft = (userId: string) =>
  useMutation({ mutationFn: () => discardPrescriptionDraft(userId) });
