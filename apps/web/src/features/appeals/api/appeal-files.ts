/** An appeal's attachments: upload into a slot (with progress), read one back, take one out. */
import { type AppealSlot, appealSchema, appealsApiPaths } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { appealFailure } from '../utils/appeal-failure.ts';
import { appealHeaders } from './appeal-session.ts';
import { appealQueryKey } from './get-appeal.ts';

/** POST appeal/{id}/file-upload (multipart, the slot name as the field name). */
export const uploadAppealFile = async (
  appealId: string,
  slot: AppealSlot,
  file: File,
  onProgress?: (fraction: number) => void,
) => {
  const form = new FormData();
  form.append(slot, file, file.name);
  return appealFailure(
    api.upload(appealsApiPaths.appealFileUpload(appealId), form, {
      headers: await appealHeaders(appealId),
      schema: appealSchema,
      onProgress: (sent, total) => onProgress?.(total > 0 ? sent / total : 0),
    }),
  );
};

/** DELETE appeal/{id}/files/{slot} (our addition). */
export const removeAppealFile = async (appealId: string, slot: AppealSlot) =>
  appealFailure(
    api.request(appealsApiPaths.appealFile(appealId, slot), {
      method: 'DELETE',
      auth: false,
      headers: await appealHeaders(appealId),
      schema: appealSchema,
    }),
  );

/** GET appeal/{id}/files/{slot} (our addition): the file as the server keeps it. */
export const downloadAppealFile = async (appealId: string, slot: AppealSlot) =>
  appealFailure(
    api.request(appealsApiPaths.appealFile(appealId, slot), {
      auth: false,
      as: 'blob',
      headers: await appealHeaders(appealId),
    }) as Promise<Blob>,
  );

export function useUploadAppealFile(appealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { slot: AppealSlot; file: File; onProgress?: (fraction: number) => void }) =>
      uploadAppealFile(appealId, input.slot, input.file, input.onProgress),
    onSuccess: (appeal) => queryClient.setQueryData(appealQueryKey(appealId), appeal),
  });
}

export function useRemoveAppealFile(appealId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (slot: AppealSlot) => removeAppealFile(appealId, slot),
    onSuccess: (appeal) => queryClient.setQueryData(appealQueryKey(appealId), appeal),
  });
}
