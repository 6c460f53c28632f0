/** The signed-in user's details: read by the shell and by many features (sender names, preferences), so it lives below them in lib/. */
import { apiPaths, type UserDetails } from '@hcp/contract';
import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api-client.ts';

export function getUserDetails(userId: string): Promise<UserDetails> {
  return api.request(apiPaths.userDetails(userId), {
    // A zod-free guard: the signed-in shell waits for this answer (decision 0043).
    schema: () => import('../boot-guards.ts').then((m) => m.userDetailsCheck),
  });
}

export const userDetailsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['users', userId, 'details'], queryFn: () => getUserDetails(userId) });

export function useUserDetails(userId: string | null) {
  return useQuery({ ...userDetailsQueryOptions(userId ?? ''), enabled: userId !== null });
}

/**
 * After a call that also saved one of the user's own choices ('Don't show this again', 'Don't ask me
 * again'), the cached details take the choice at once — the next dialog is skipped and Preferences shows
 * it without a reload (issue 21) — and are then read again from the server, which holds the truth.
 */
export async function rememberUserPreferences(
  queryClient: QueryClient,
  userId: string,
  prefs: Partial<UserDetails['mdOfficeUserPrefs']>,
): Promise<void> {
  const { queryKey } = userDetailsQueryOptions(userId);
  queryClient.setQueryData(queryKey, (details) =>
    details ? { ...details, mdOfficeUserPrefs: { ...details.mdOfficeUserPrefs, ...prefs } } : details,
  );
  await queryClient.invalidateQueries({ queryKey });
}
