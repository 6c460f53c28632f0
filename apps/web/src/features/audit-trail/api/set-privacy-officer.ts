import { auditApiPaths, statusOkSchema } from '@hcp/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { auditKeys } from './keys.ts';

/** PUT audit-trail/privacy-officers/{userId}: makes another admin a privacy officer, or takes it back. */
export function useSetPrivacyOfficer() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, privacyOfficer }: { userId: string; privacyOfficer: boolean }) =>
      api.request(auditApiPaths.privacyOfficer(userId), { method: 'PUT', body: { privacyOfficer }, schema: statusOkSchema }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: auditKeys.privacyOfficers }),
  });
}
