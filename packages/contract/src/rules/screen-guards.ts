/**
 * Zod-free checks of the answers the signed-in landing screens draw from: Action Needed's list (the shell's tab
 * counts too), the Rx list's rows, a patient search's page, the New Comments count in the navigation and the support-access banner. Checked with zod, they
 * brought zod and the contract's schemas (29 KiB, 120-220 ms of a phone's main thread to build, ~150 ms more to
 * check Action Needed's answer) into the first load of every signed-in screen (issue 50, decision 0064).
 * Each guard is written as its schema reads and held to it by a property test (test/screen-guards.test.ts).
 */
import type { DoctorListSearchResponse } from '../api/comments.ts';
import type { PatientSearchResponse } from '../api/patients.ts';
import type { ActionNeededResponse, RxListItem } from '../api/prescriptions.ts';
import type { SupportAccessState } from '../api/support-access.ts';
import { FINAL_DENIAL_REASONS, PRIOR_AUTH_METHODS } from './action-types.ts';
import { DEA_SCHEDULES } from './epcs.ts';
import {
  arrayOf,
  type Check,
  fields,
  isBoolean,
  isInteger,
  isNumber,
  isString,
  oneOf,
  optional,
  orNull,
  unionOn,
} from './guard-kit.ts';

const storedNote = orNull(isString);
/** `preparedDecisionSchema`. */
const preparedDecision = fields({
  decision: unionOn('action', {
    refillAuthorizedFax: fields({ refills: isInteger, sig: isString, note: storedNote }),
    refillAuthorizedErx: fields({ note: storedNote }),
    refillDenied: fields({ reason: oneOf(FINAL_DENIAL_REASONS), note: storedNote }),
    alternativeMed: fields({ noSubstitute: isBoolean, selectedAlternativeMed: orNull(isString), note: storedNote }),
  }),
  preparedByName: isString,
  preparedAt: isString,
});

/** `actionNeededPrescriptionSchema`. */
const prescription = fields({
  id: isString,
  practiceId: optional(isString),
  patientID: isString,
  needsRefillAuth: isBoolean,
  phoneException: isBoolean,
  substitutionStatus: orNull(isString),
  priorAuthStatus: orNull(isString),
  priorAuthMethod: orNull(oneOf(PRIOR_AUTH_METHODS)),
  hcpActionRequired: isBoolean,
  dispensedNdc: orNull(isString),
  prescribedNdc: orNull(isString),
  drugName: isString,
  strength: orNull(isString),
  quantity: orNull(isInteger),
  daysSupply: orNull(isInteger),
  refills: isInteger,
  sig: orNull(isString),
  prescribedDate: isString,
  lastProcessedDate: orNull(isString),
  orderNumber: orNull(isString),
  orderStatus: orNull(isString),
  price: orNull(isNumber),
  alternativeMeds: arrayOf(isString),
  lastFilledOn: optional(orNull(isString)),
  refillsRemaining: optional(orNull(isInteger)),
  prepared: optional(orNull(preparedDecision)),
  faxByRule: optional(orNull(isString)),
  controlled: optional(orNull(fields({ schedule: orNull(oneOf(DEA_SCHEDULES)) }))),
});

/** The patient fields every doctors-and-patients answer carries. */
const person = { id: isString, firstName: isString, lastName: isString, dob: isString };
/** A prescriber with the patients of one answer (Action Needed's, New Comments'). */
const doctorWith = (patient: Check) => fields({ doctorId: isString, name: isString, role: isString, patients: arrayOf(patient) });

/** `actionNeededResponseSchema`: doctors, their patients, the patients' prescriptions. */
const actionNeededResponse = fields({
  doctors: arrayOf(doctorWith(fields({ ...person, phoneNumbers: arrayOf(isString), prescriptions: arrayOf(prescription) }))),
});

const isPositive: Check = (value) => isInteger(value) && (value as number) > 0;
const isNonNegative: Check = (value) => isInteger(value) && (value as number) >= 0;

/** `doctorListSearchResponseSchema`: the patients with unread comments, by prescriber, and the total. */
const doctorListSearchResponse = fields({
  doctors: arrayOf(doctorWith(fields({ ...person, unreadCount: isPositive, latestAt: isString }))),
  total: isNonNegative,
});

/** `supportAccessStateSchema`. */
const supportAccessState = fields({
  active: orNull(
    fields({
      id: isString,
      mdOfficeId: isString,
      practiceName: isString,
      userName: isString,
      reason: isString,
      startedAt: isString,
      expiresAt: isString,
      endedAt: orNull(isString),
      active: isBoolean,
    }),
  ),
});

/** `rxListResponseSchema`: the Rx list's rows. */
const rxListResponse = arrayOf(
  fields({
    id: isString,
    practiceName: isString,
    patientName: isString,
    patientDob: isString,
    prescriptionName: isString,
    isWholeSale: isBoolean,
    orderNumber: orNull(isString),
    prescribedDate: isString,
    orderStatus: orNull(isString),
    pending: isBoolean,
    lastProcessedDate: orNull(isString),
    prescriberName: isString,
    prescriberPhoneNumber: orNull(isString),
    prescriberCreatedDate: orNull(isString),
    prescriberSpecialty: orNull(isString),
    price: orNull(isNumber),
  }),
);

/** `patientSearchResponseSchema`: one page of All Patients' search. */
const patientSearchResponse = fields({
  records: arrayOf(
    fields({
      ...person,
      phoneNumbers: arrayOf(isString),
      practiceName: isString,
      actionNeededCount: isNonNegative,
    }),
  ),
  total: isNonNegative,
});

/** `actionNeededResponseSchema` without zod. */
export function isActionNeededResponse(value: unknown): value is ActionNeededResponse {
  return actionNeededResponse(value);
}

/** `doctorListSearchResponseSchema` without zod. */
export function isDoctorListSearchResponse(value: unknown): value is DoctorListSearchResponse {
  return doctorListSearchResponse(value);
}

/** `supportAccessStateSchema` without zod. */
export function isSupportAccessState(value: unknown): value is SupportAccessState {
  return supportAccessState(value);
}

/** `rxListResponseSchema` without zod. */
export function isRxListResponse(value: unknown): value is RxListItem[] {
  return rxListResponse(value);
}

/** `patientSearchResponseSchema` without zod. */
export function isPatientSearchResponse(value: unknown): value is PatientSearchResponse {
  return patientSearchResponse(value);
}
