import { apiPaths, rememberedDevicesSchema, statusOkSchema } from '@hcp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET /api/mdo/v1/users/{userId}/remembered-devices: how many devices skip the MFA code. */
export const getRememberedDevices = (userId: string) =>
  api.request(apiPaths.rememberedDevices(userId), { schema: rememberedDevicesSchema });

export const rememberedDevicesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['remembered-devices', userId], queryFn: () => getRememberedDevices(userId) });

export const useRememberedDevices = (userId: string) => useQuery(rememberedDevicesQueryOptions(userId));

/** DELETE …/remembered-devices: every device asks for a code at its next sign-in. */
export const forgetRememberedDevices = (userId: string) =>
  api.request(apiPaths.rememberedDevices(userId), { method: 'DELETE', schema: statusOkSchema });

export function useForgetRememberedDevices(userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => forgetRememberedDevices(userId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: rememberedDevicesQueryOptions(userId).queryKey }),
  });
}
