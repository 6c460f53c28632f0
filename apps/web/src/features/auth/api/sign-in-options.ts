import { apiPaths, isSignInOptions } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, guardCheck } from '../../../lib/api-client.ts';

/** GET /auth-service/options: what the login page offers (the Google client id, or null). */
export const getSignInOptions = () =>
  api.request(apiPaths.signInOptions, {
    auth: false,
    // Read as the sign-in page opens: checked without zod (decision 0043).
    schema: guardCheck(isSignInOptions),
  });

export const signInOptionsQueryOptions = () =>
  queryOptions({ queryKey: ['sign-in-options'], queryFn: getSignInOptions, staleTime: Number.POSITIVE_INFINITY, retry: 1 });

export const useSignInOptions = () => useQuery(signInOptionsQueryOptions());
