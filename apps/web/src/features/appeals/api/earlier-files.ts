/** The patient's earlier appeal files (issue 23): offered for this appeal, and taken into a slot without uploading. */
import { type AppealSlot, appealSchema, appealsApiPaths, earlierAppealFilesSchema } from '@hcp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { appealFailure } from '../utils/appeal-failure.ts';
import { appealHeaders } from './appeal-session.ts';
import { appealQueryKey } from './get-appeal.ts';

/** GET appeal/{id}/earlier-files (our addition). */
export const getEarlierFiles = async (appealId: string, signal?: AbortSignal) =>
  appealFailure(
    api.request(appealsApiPaths.appealEarlierFiles(appealId), {
      auth: false,
      headers: await appealHeaders(appealId),
      schema: earlierAppealFilesSchema,
      signal,
    }),
  );

export const earlierFilesQueryOptions = (appealId: string) =>
  queryOptions({
    queryKey: ['appeal', appealId, 'earlier-files'] as const,
    queryFn: ({ signal }) => getEarlierFiles(appealId, signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  });

export const useEarlierFiles = (appealId: string) => useQuery(earlierFilesQueryOptions(appealId));

/** POST appeal/{id}/reuse-file (our addition): the file is shared by reference, not sent again. */
export const reuseAppealFile = async (appealId: string, input: { fileId: string; slot: AppealSlot }) =>
  appealFailure(
    api.request(appealsApiPaths.appealReuseFile(appealId), {
      method: 'POST',
      auth: false,
      headers: await appealHeaders(appealId),
      body: input,
      schema: appealSchema,
    }),
  );

export function useReuseAppealFile(appealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { fileId: string; slot: AppealSlot }) => reuseAppealFile(appealId, input),
    onSuccess: (appeal) => queryClient.setQueryData(appealQueryKey(appealId), appeal),
  });
}
