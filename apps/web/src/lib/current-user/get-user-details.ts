/** The signed-in user's details: read by the shell and by many features (sender names, preferences), so it lives below them in lib/. */
import { apiPaths, type UserDetails, userDetailsSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export function getUserDetails(userId: string): Promise<UserDetails> {
  return api.request(apiPaths.userDetails(userId), { schema: userDetailsSchema });
}

export const userDetailsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['users', userId, 'details'], queryFn: () => getUserDetails(userId) });

export function useUserDetails(userId: string | null) {
  return useQuery({ ...userDetailsQueryOptions(userId ?? ''), enabled: userId !== null });
}
