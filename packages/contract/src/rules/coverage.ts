/**
 * Who signs for whom (issue 23, decision 0041). A practice chooses its signing policy: any of its prescribers signs
 * any of its requests (`anyPrescriber`, the default), or each prescriber's requests are signed by that prescriber or
 * by a colleague covering for them (`ownOrCovering`) — a coverage names who covers whom, from when until when. A
 * prescriber who may not sign an item still prepares it for signature, as office staff do.
 */
import type { ClinicalAccess } from './clinical-access.ts';
import { calendarDateOf, formatUsDate, parseIsoDate } from './dates.ts';

export const SIGNING_POLICIES = ['anyPrescriber', 'ownOrCovering'] as const;
export type SigningPolicy = (typeof SIGNING_POLICIES)[number];

export const SIGNING_POLICY_LABELS: Record<SigningPolicy, string> = {
  anyPrescriber: 'Any prescriber of the practice signs any request',
  ownOrCovering: 'Each prescriber signs their own requests, or a colleague covering for them',
};

/** A coverage lasts at most this long (a long absence is a new coverage, seen again by the practice). */
export const COVERAGE_MAX_DAYS = 180;

/** What the signing rule reads of a signed-in prescriber: the practices that restrict signing, and whom they cover. */
export interface SigningFacts {
  /** The user's practices whose policy is `ownOrCovering` (elsewhere every prescriber of the practice signs). */
  ownOrCoveringPracticeIds: string[];
  /** The coverages naming the user as the covering prescriber, not ended (ISO 8601 instants). */
  covers: { practiceId: string; prescriberId: string; startsAt: string; endsAt: string }[];
}

/** A coverage is in force from its start up to (not including) its end. */
export function isCoverageInForce(coverage: { startsAt: string; endsAt: string }, now: Date): boolean {
  const at = now.getTime();
  return Date.parse(coverage.startsAt) <= at && at < Date.parse(coverage.endsAt);
}

/**
 * Whether a prescriber (their HCP id `ownPrescriberId`) may sign a request of `item.prescriberId` in
 * `item.practiceId`. Only a question for prescribers: whether the user signs at all is `clinicalAccess`.
 */
export function maySignFor(
  signing: SigningFacts | null | undefined,
  ownPrescriberId: string | null | undefined,
  item: { practiceId: string; prescriberId: string },
  now: Date,
): boolean {
  if (!signing?.ownOrCoveringPracticeIds.includes(item.practiceId)) return true;
  if (ownPrescriberId && item.prescriberId === ownPrescriberId) return true;
  return signing.covers.some(
    (c) => c.practiceId === item.practiceId && c.prescriberId === item.prescriberId && isCoverageInForce(c, now),
  );
}

/** What the screens read of the signed-in user (the user details answer). */
export interface SignerLike {
  signing?: SigningFacts | null | undefined;
  details: { mdStaffId: string | null };
}

/**
 * What a user may do with one item: a prescriber the practice's policy does not let sign it prepares it instead
 * (the server refuses the signature with `COVERAGE_MESSAGES.notYours`). An item without its practice is signable.
 */
export function accessToItem(
  access: ClinicalAccess,
  user: SignerLike | undefined,
  item: { practiceId?: string | undefined; prescriberId: string },
  now: Date = new Date(),
): ClinicalAccess {
  if (access !== 'sign') return access;
  return maySignItem(user, item, now) ? 'sign' : 'prepare';
}

/** Whether the signed-in prescriber signs this item (the screens' form of `maySignFor`). */
export function maySignItem(
  user: SignerLike | undefined,
  item: { practiceId?: string | undefined; prescriberId: string },
  now: Date = new Date(),
): boolean {
  if (!user || !item.practiceId) return true;
  const target = { practiceId: item.practiceId, prescriberId: item.prescriberId };
  return maySignFor(user.signing, user.details.mdStaffId, target, now);
}

/** Said on an item a prescriber may not sign under the practice's policy. */
export const signedByText = (prescriberName: string) =>
  `${prescriberName} signs this request, or a colleague covering for them. You can prepare it for their signature.`;

/** Why a coverage cannot be saved as given, or null. */
export function coverageProblem(
  coverage: { coveringPrescriberId: string; coveredPrescriberId: string; startsAt: string; endsAt: string },
  now: Date,
): { path: 'coveringPrescriberId' | 'endsAt'; message: string } | null {
  if (coverage.coveringPrescriberId === coverage.coveredPrescriberId) {
    return { path: 'coveringPrescriberId', message: COVERAGE_MESSAGES.self };
  }
  const starts = Date.parse(coverage.startsAt);
  const ends = Date.parse(coverage.endsAt);
  if (ends <= starts) return { path: 'endsAt', message: COVERAGE_MESSAGES.endsBeforeStart };
  if (ends <= now.getTime()) return { path: 'endsAt', message: COVERAGE_MESSAGES.endsInPast };
  if (ends - starts > COVERAGE_MAX_DAYS * 86_400_000) return { path: 'endsAt', message: COVERAGE_MESSAGES.tooLong };
  return null;
}

export const COVERAGE_MESSAGES = {
  self: 'A prescriber covers for someone else: choose two different prescribers.',
  endsBeforeStart: 'The last day must be on or after the first day.',
  endsInPast: 'The last day has passed: choose a day from today on.',
  tooLong: `A coverage lasts at most ${COVERAGE_MAX_DAYS} days: add another one for a longer absence.`,
  notPrescriber: 'Choose one of the practice’s prescribers.',
  prescriberOnly: 'Only a prescriber of the practice can change who signs.',
  notFound: 'Coverage not found.',
  /** A signature refused by the practice's policy (403): the screen offers to prepare it instead. */
  notYours:
    'In this practice a prescriber’s requests are signed by that prescriber or a colleague covering for them. Prepare it for their signature instead.',
  /** A standing rule under the policy answers only the requests of prescribers its author signs for. */
  ruleNotYours:
    'In this practice rules answer only the requests of prescribers you sign for: choose yourself or a colleague you cover.',
} as const;

/**
 * The instants of a coverage a person gives as days (YYYY-MM-DD, their own calendar): from the start of the first
 * day up to the end of the last. Null when a day is not a date.
 */
export function coverageInstantsOf(firstDay: string, lastDay: string): { startsAt: string; endsAt: string } | null {
  const first = parseIsoDate(firstDay);
  const last = parseIsoDate(lastDay);
  if (!first || !last) return null;
  return {
    startsAt: new Date(first.year, first.month - 1, first.day).toISOString(),
    endsAt: new Date(last.year, last.month - 1, last.day + 1).toISOString(),
  };
}

/** The last day a coverage runs through, as the reader's MM/DD/YYYY (it ends at the start of the next). */
export const coverageLastDayText = (endsAt: string): string => formatUsDate(calendarDateOf(new Date(Date.parse(endsAt) - 1)));
/** The first day of a coverage, as the reader's MM/DD/YYYY. */
export const coverageFirstDayText = (startsAt: string): string => formatUsDate(calendarDateOf(new Date(startsAt)));
