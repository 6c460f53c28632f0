import { apiPaths, type ChangePassword, statusOkSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST /api/mdo/v1/users/{userId}/update-password: the signed-in change, current password required. */
export const changePassword = (userId: string, input: ChangePassword) =>
  api.request(apiPaths.changePassword(userId), { method: 'POST', body: input, schema: statusOkSchema });

export const useChangePassword = (userId: string) =>
  useMutation({ mutationFn: (input: ChangePassword) => changePassword(userId, input) });
