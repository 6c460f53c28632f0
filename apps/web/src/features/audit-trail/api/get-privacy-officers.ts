import { auditApiPaths, privacyOfficersResponseSchema } from '@hcp/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys } from './keys.ts';

/** GET audit-trail/privacy-officers: the tenant's provider admins, and who of them reviews the trail. */
export const getPrivacyOfficers = (signal?: AbortSignal) =>
  api.request(auditApiPaths.privacyOfficers, { schema: privacyOfficersResponseSchema, signal });

export const privacyOfficersOptions = () =>
  queryOptions({ queryKey: auditKeys.privacyOfficers, queryFn: ({ signal }) => getPrivacyOfficers(signal) });

export const usePrivacyOfficers = () => useQuery(privacyOfficersOptions());
