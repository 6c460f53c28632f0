/**
 * Minimum necessary access (HIPAA; docs/decisions/0020-minimum-necessary-access.md): who may see a
 * practice's patients and who may act on them. Both sides read these rules: the server enforces them
 * (404 outside the practice, 403 for a read-only or unsigned action inside it), the web offers only what
 * they allow.
 */
import { isMdoUser, isPrescriber, isProviderUser, type RoleSubject } from './roles.ts';
import type { PrescriptionAction } from './transitions.ts';

/**
 * Actions that are a prescriber's clinical decision and reach the pharmacy as one: authorising or denying a
 * refill and choosing (or refusing) an alternative medication. Office staff prepare the rest and may do it:
 * postpone a refill, send chart notes, mark a PA signature received, dismiss PA notices, correct phones.
 */
export const SIGNATURE_ACTIONS = [
  'refillAuthorizedFax',
  'refillAuthorizedErx',
  'refillDenied',
  'alternativeMed',
] as const satisfies readonly PrescriptionAction[];

const signatureActions: ReadonlySet<string> = new Set(SIGNATURE_ACTIONS);
export function needsPrescriberSignature(action: PrescriptionAction): boolean {
  return signatureActions.has(action);
}

/**
 * What a user may do with a practice's patient data:
 * - `sign`: a prescriber of the practice — every clinical action;
 * - `prepare`: office staff of the practice — everything that needs no prescriber's signature;
 * - `readOnly`: the provider's admin or sales user inside an open support-access window;
 * - `none`: anyone else (the provider's users outside support access see counts, never patients).
 */
export type ClinicalAccess = 'sign' | 'prepare' | 'readOnly' | 'none';

export function clinicalAccess(user: RoleSubject, options: { supportAccessActive?: boolean } = {}): ClinicalAccess {
  if (isProviderUser(user)) return options.supportAccessActive ? 'readOnly' : 'none';
  if (!isMdoUser(user)) return 'none';
  return isPrescriber(user) ? 'sign' : 'prepare';
}

/** Whether someone may change a practice's patient data at all (reply, mark read, any action): its own people. */
export function mayChangePatientData(access: ClinicalAccess): boolean {
  return access === 'sign' || access === 'prepare';
}

/** Whether someone with this access may take this action (the server's 403 and the web's offer agree). */
export function mayTakeAction(access: ClinicalAccess, action: PrescriptionAction): boolean {
  if (!mayChangePatientData(access)) return false;
  return access === 'sign' || !needsPrescriberSignature(action);
}

export const CLINICAL_REFUSALS = {
  readOnly: 'Support access is read-only: the practice’s own people act on its patients.',
  needsPrescriber: 'Only a prescriber of the practice can do this. Ask a prescriber to sign it.',
} as const;

/** Support access (break-the-glass): one practice, a stated reason, at most an hour, read-only. */
export const SUPPORT_ACCESS_LIMITS = {
  maxMinutes: 60,
  minMinutes: 5,
  reasonMinLength: 10,
  reasonMaxLength: 500,
} as const;
