import { auditApiPaths, userActivityReportSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys, type DateRange } from './keys.ts';

export type UserActivityParams = DateRange & { userId: string; page: number };

/** GET audit-trail/user-activity: what one person did, 50 a page, newest first. */
export const getUserActivity = (q: UserActivityParams, signal?: AbortSignal) =>
  api.request(auditApiPaths.userActivity(q), { schema: userActivityReportSchema, signal });

export const userActivityOptions = (q: UserActivityParams) =>
  queryOptions({ queryKey: auditKeys.userActivity(q), queryFn: ({ signal }) => getUserActivity(q, signal) });

export const useUserActivity = (q: UserActivityParams | null) =>
  useQuery({
    ...userActivityOptions(q ?? { userId: '', from: '', to: '', page: 1 }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
  });
