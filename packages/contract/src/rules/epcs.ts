/**
 * Electronic prescribing of controlled substances (issue 48, 21 CFR 1311; decision 0059): the rules both sides
 * read — a DEA registration number and its check digit, what a registration covers, the refill limits of each
 * schedule, and the words the signing screen must show. No zod here (the schemas are in api/epcs.ts).
 */

/** The DEA schedules a prescription can be signed for (Schedule I drugs are never prescribed). */
export const DEA_SCHEDULES = ['II', 'III', 'IV', 'V'] as const;
export type DeaSchedule = (typeof DEA_SCHEDULES)[number];

/** A C-III to C-V prescription: at most five refills, none filled more than six months after it was issued (21 CFR 1306.22). */
export const EPCS_LIMITS = { maxRefills: 5, refillMonths: 6 } as const;

/**
 * The statement 21 CFR 1311.140(a)(3) requires on the screen where the practitioner signs, word for word.
 */
export const EPCS_LEGAL_TEXT =
  'By completing the two-factor authentication protocol at this time, you are legally signing the prescription(s) and authorizing the transmission of the above information to the pharmacy for dispensing. The two-factor authentication protocol may only be completed by the practitioner whose name and DEA registration number appear above.';

/** The first letter of a DEA number: the kind of registrant (practitioners, mid-levels, and the rest DEA issues). */
const REGISTRANT_LETTERS = 'ABCDEFGHJKLMPRSTUX';

/** A DEA number as typed: spaces and case do not count. */
export function normalizeDeaNumber(text: string): string {
  return text.replace(/\s/g, '').toUpperCase();
}

/**
 * Why a DEA number cannot be one, or null: two letters (the registrant's kind, then the first letter of their last
 * name, or 9 for a business) and seven digits whose last is the check digit: (1st + 3rd + 5th) + 2 × (2nd + 4th +
 * 6th), its last digit.
 */
export function deaNumberProblem(text: string): string | null {
  const value = normalizeDeaNumber(text);
  if (!/^[A-Z][A-Z9]\d{7}$/.test(value)) return EPCS_MESSAGES.deaFormat;
  if (!REGISTRANT_LETTERS.includes(value.charAt(0))) return EPCS_MESSAGES.deaFormat;
  const d = [...value.slice(2)].map(Number) as [number, number, number, number, number, number, number];
  const check = (d[0] + d[2] + d[4] + 2 * (d[1] + d[3] + d[5])) % 10;
  return check === d[6] ? null : EPCS_MESSAGES.deaCheckDigit;
}

/** A registration as the rules read it. */
export interface DeaRegistrationFacts {
  number: string;
  schedules: readonly string[];
  state: string;
  /** YYYY-MM-DD, the last day it is valid. */
  expiresOn: string;
}

/** Why this registration does not cover a drug of `schedule` prescribed in `state` on `today`, or null. */
export function registrationProblem(
  registration: DeaRegistrationFacts,
  need: { schedule: DeaSchedule; state: string | null },
  today: string,
): string | null {
  if (registration.expiresOn < today) return EPCS_MESSAGES.registrationExpired;
  if (!need.state || registration.state !== need.state) return EPCS_MESSAGES.registrationState;
  if (!registration.schedules.includes(need.schedule)) return EPCS_MESSAGES.registrationSchedule(need.schedule);
  return null;
}

/**
 * The registration that covers the need, or the reason none does (the most telling one: a registration for the
 * state that lacks the schedule says so rather than "none for the state").
 */
export function coveringRegistration<T extends DeaRegistrationFacts>(
  registrations: readonly T[],
  need: { schedule: DeaSchedule; state: string | null },
  today: string,
): { registration: T; problem: null } | { registration: null; problem: string } {
  if (registrations.length === 0) return { registration: null, problem: EPCS_MESSAGES.noRegistration };
  let problem: string = EPCS_MESSAGES.registrationState;
  for (const registration of registrations) {
    const reason = registrationProblem(registration, need, today);
    if (reason === null) return { registration, problem: null };
    if (registration.state === need.state) problem = reason;
  }
  return { registration: null, problem };
}

/**
 * A registrant of a practice for EPCS access control (21 CFR 1311.125): a current registration for the practice's
 * state, whatever its schedules. Who may be granted permission there, and who may approve a change of it.
 */
export function isRegistrantFor(registrations: readonly DeaRegistrationFacts[], state: string | null, today: string): boolean {
  return registrations.some((r) => r.state === state && r.expiresOn >= today);
}

/** The day `months` after an ISO day (the same day of the month, or that month's last day). */
export function addMonthsIso(isoDay: string, months: number): string {
  const [y, m, d] = isoDay.slice(0, 10).split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + months, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  return new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth(), Math.min(d, last))).toISOString().slice(0, 10);
}

/**
 * Why a refill authorization of a controlled substance cannot be signed, or null: Schedule II is never refilled
 * (21 CFR 1306.12); III to V at most five refills and not more than six months after the prescription was issued
 * (21 CFR 1306.22).
 */
export function controlledRefillProblem(input: {
  schedule: DeaSchedule;
  refills: number;
  issuedOn: string;
  today: string;
}): string | null {
  if (input.schedule === 'II') return EPCS_MESSAGES.scheduleTwoRefill;
  if (!Number.isInteger(input.refills) || input.refills < 0 || input.refills > EPCS_LIMITS.maxRefills) {
    return EPCS_MESSAGES.tooManyRefills;
  }
  if (input.today > addMonthsIso(input.issuedOn, EPCS_LIMITS.refillMonths)) return EPCS_MESSAGES.pastSixMonths;
  return null;
}

/** Why a new controlled prescription cannot be signed with these refills, or null: none for C-II, five for C-III to V. */
export function controlledPrescriptionProblem(input: { schedule: DeaSchedule; refills: number }): string | null {
  if (input.schedule === 'II') return input.refills === 0 ? null : EPCS_MESSAGES.scheduleTwoNoRefills;
  return input.refills >= 0 && input.refills <= EPCS_LIMITS.maxRefills ? null : EPCS_MESSAGES.tooManyRefills;
}

/** Which factor, beside the password, completed a two-factor step for EPCS. */
export const EPCS_FACTORS = ['passkey', 'totp'] as const;
export type EpcsFactor = (typeof EPCS_FACTORS)[number];

/** The words of EPCS, said the same on both sides. */
export const EPCS_MESSAGES = {
  deaFormat: 'Enter a DEA number as two letters and seven digits, for example AB1234563.',
  deaCheckDigit: 'This DEA number’s check digit does not match. Check the number on the registration.',
  expiresPast: 'This registration has expired. Enter one that is current.',
  schedulesRequired: 'Choose at least one schedule.',
  duplicateRegistration: 'This DEA number is already on your account.',
  noRegistration: 'You have no DEA registration on record. Add it in Preferences under Controlled substances.',
  registrationExpired: 'Your DEA registration has expired: controlled substances cannot be signed until it is renewed.',
  registrationState: 'You have no DEA registration for the state of this practice.',
  registrationSchedule: (schedule: string) => `Your DEA registration does not cover Schedule ${schedule}.`,
  noRights:
    'You do not have permission to sign controlled substances for this practice. Two people must grant it under Controlled substances.',
  notPrescriber: 'Only a prescriber signs controlled substances.',
  scheduleTwoRefill: 'Schedule II prescriptions cannot be refilled. Deny the request and write a new prescription.',
  scheduleTwoNoRefills: 'A Schedule II prescription cannot have refills.',
  notControlled: 'This is not a controlled substance: send it as usual.',
  tooManyRefills: `Controlled substances in Schedules III to V may have at most ${EPCS_LIMITS.maxRefills} refills.`,
  pastSixMonths: 'This prescription was issued more than six months ago: it cannot be refilled. Write a new prescription.',
  needsEpcs: 'A controlled substance is signed with EPCS: use Sign controlled substance.',
  strongFactorNeeded:
    'Add a passkey, security key or authenticator app in Preferences first: signing needs one with your password.',
  wrongFactor: 'The password or the second factor did not match. Nothing was signed.',
  changed: 'This prescription changed after it was shown for signing. Nothing was signed: review it again.',
  signingExpired: 'The signing screen was open too long. Nothing was signed: start again.',
  signed: 'Signed and sent to the pharmacy with its EPCS signature.',
  ownGrant: 'Someone else must approve a change to your own permission.',
  sameApprover: 'The person who entered this change cannot also approve it: a second person must.',
  approverNotRegistrant: 'Only a prescriber with a current DEA registration can approve EPCS permissions.',
  verifyRequired: 'Confirm that you checked the DEA registration and state authorization are current.',
  alreadyPending: 'A change of this prescriber’s permission is already waiting for approval.',
  nothingToChange: 'This prescriber already has that permission.',
  noRegistrationToGrant: 'This prescriber has no current DEA registration on record.',
} as const;
