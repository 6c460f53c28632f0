import { auditApiPaths, auditUsersResponseSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys } from './keys.ts';

/** GET audit-trail/users: the tenant's people, by name or e-mail. */
export const getAuditUsers = (search: string, signal?: AbortSignal) =>
  api.request(auditApiPaths.users(search), { schema: auditUsersResponseSchema, signal });

export const auditUsersOptions = (search: string) =>
  queryOptions({ queryKey: auditKeys.users(search), queryFn: ({ signal }) => getAuditUsers(search, signal) });

export const useAuditUsers = (search: string | null) =>
  useQuery({ ...auditUsersOptions(search ?? ''), enabled: search !== null });
