/**
 * Manage Communications: practices, HCPs and staff, their communication preferences and links. Who may do
 * what is the contract's manageCommsAccess rule; anything outside it answers 404 (DESIGN §3). Every write
 * runs in one transaction with its audit row; deletes are soft and refused while work is open.
 */
import { createManageCommsCore, type ManageCommsDeps } from './core.ts';
import { peopleUseCases } from './people.ts';
import { practiceStaffUseCases } from './practice-staff.ts';
import { practiceUseCases } from './practices.ts';

export { type PracticeSessions, SALES_FIELD_REFUSED } from './core.ts';

/** Every Manage Communications use case behind one face, each subject in its own file of this folder. */
export function createManageCommsService(deps: ManageCommsDeps) {
  const core = createManageCommsCore(deps);
  return {
    ...practiceUseCases(deps, core),
    ...practiceStaffUseCases(deps, core),
    ...peopleUseCases(deps, core),
  };
}
export type ManageCommsService = ReturnType<typeof createManageCommsService>;
