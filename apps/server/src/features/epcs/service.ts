/**
 * EPCS (issue 48, decision 0059) behind one face: a prescriber's DEA registrations (registrations.ts), the
 * two-person permission to sign controlled substances (access.ts) and the practice's reports (reports.ts). Signing
 * itself is a refill decision: features/action-needed/controlled-refills.ts.
 */
import { accessUseCases } from './access.ts';
import type { EpcsDeps } from './common.ts';
import { registrationUseCases } from './registrations.ts';
import { reportUseCases } from './reports.ts';

export type { EpcsContext, EpcsDeps } from './common.ts';

export function createEpcsService(deps: EpcsDeps) {
  return { ...registrationUseCases(deps), ...accessUseCases(deps), ...reportUseCases(deps) };
}
export type EpcsService = ReturnType<typeof createEpcsService>;
