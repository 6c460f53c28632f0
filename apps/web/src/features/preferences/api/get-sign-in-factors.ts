import { apiPaths, signInFactorsSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** GET …/sign-in-factors: the user's authenticator app (once confirmed) and how many recovery codes are left. */
export const getSignInFactors = (userId: string) => api.request(apiPaths.signInFactors(userId), { schema: signInFactorsSchema });

export const signInFactorsQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['sign-in-factors', userId], queryFn: () => getSignInFactors(userId) });

export const useSignInFactors = (userId: string) => useQuery(signInFactorsQueryOptions(userId));
