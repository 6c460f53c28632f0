import { apiPaths, myPracticesSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { withFailureMessage } from '../../../lib/service-error.ts';

/** GET /api/mdo/v1/users/{id}/practices (our design): the practices this user acts for. */
export const getMyPractices = (userId: string, signal?: AbortSignal) =>
  withFailureMessage(
    'Failed to fetch MD offices',
    api.request(apiPaths.myPractices(userId), { schema: myPracticesSchema, signal }),
  );

export const myPracticesQueryOptions = (userId: string) =>
  queryOptions({ queryKey: ['practices', 'mine', userId], queryFn: ({ signal }) => getMyPractices(userId, signal) });

export const useMyPractices = (userId: string) => useQuery(myPracticesQueryOptions(userId));
