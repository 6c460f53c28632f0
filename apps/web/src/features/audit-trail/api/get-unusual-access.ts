import { auditApiPaths, type UnusualAccessRule, unusualAccessResponseSchema } from '@hcp/contract';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { ReviewStatus } from './get-support-windows.ts';
import { auditKeys, type DateRange } from './keys.ts';

export type UnusualAccessParams = DateRange & { status: ReviewStatus; rule?: UnusualAccessRule | undefined };

/** GET audit-trail/unusual-access: the three rules' findings in the range. */
export const getUnusualAccess = (q: UnusualAccessParams, signal?: AbortSignal) =>
  api.request(auditApiPaths.unusualAccess(q), { schema: unusualAccessResponseSchema, signal });

export const unusualAccessOptions = (q: UnusualAccessParams) =>
  queryOptions({ queryKey: auditKeys.unusualAccess(q), queryFn: ({ signal }) => getUnusualAccess(q, signal) });

export const useUnusualAccess = (q: UnusualAccessParams) =>
  useQuery({ ...unusualAccessOptions(q), placeholderData: keepPreviousData });
