import { auditApiPaths, supportWindowsResponseSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys, type DateRange } from './keys.ts';

export type ReviewStatus = 'open' | 'reviewed' | 'all';
export type SupportWindowsParams = DateRange & { status: ReviewStatus; page: number };

/** GET audit-trail/support-windows: every break-the-glass window in the range, with what was read in it. */
export const getSupportWindows = (q: SupportWindowsParams, signal?: AbortSignal) =>
  api.request(auditApiPaths.supportWindows(q), { schema: supportWindowsResponseSchema, signal });

export const supportWindowsOptions = (q: SupportWindowsParams) =>
  queryOptions({ queryKey: auditKeys.supportWindows(q), queryFn: ({ signal }) => getSupportWindows(q, signal) });

export const useSupportWindows = (q: SupportWindowsParams) =>
  useQuery({ ...supportWindowsOptions(q), placeholderData: keepPreviousData });
