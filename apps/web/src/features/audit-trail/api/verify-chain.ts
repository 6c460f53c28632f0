import { auditApiPaths, chainReportSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST audit-trail/verify: walks the seals and names the first row changed, removed or inserted after sealing. */
export const useVerifyChain = () =>
  useMutation({ mutationFn: () => api.request(auditApiPaths.verify, { method: 'POST', schema: chainReportSchema }) });
