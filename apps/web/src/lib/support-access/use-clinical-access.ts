/**
 * What the signed-in user may do with patient data (the contract's clinicalAccess rule, decision 0020): the
 * screens offer only the actions it allows, so nobody fills a form the server will refuse.
 */
import { type ClinicalAccess, clinicalAccess, isProviderUser } from '@hcp/contract';
import { useUserDetails } from '../current-user/get-user-details.ts';
import { useSupportAccess } from './get-support-access.ts';

export function useClinicalAccess(userId: string): {
  access: ClinicalAccess | undefined;
  /** The provider's user outside a support window: patient screens say where patients are instead. */
  seesNoPatients: boolean;
} {
  const user = useUserDetails(userId).data;
  const isProvider = user ? isProviderUser(user) : false;
  const support = useSupportAccess(userId, isProvider);
  if (!user || (isProvider && support.isPending)) return { access: undefined, seesNoPatients: false };
  const access = clinicalAccess(user, { supportAccessActive: Boolean(support.data?.active) });
  return { access, seesNoPatients: isProvider && access === 'none' };
}
