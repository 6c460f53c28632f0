/**
 * Who signs for whom (issue 23, decision 0041). A practice chooses its signing policy: any of its prescribers signs
 * any of its requests (`anyPrescriber`, the default), or each prescriber's requests are signed by that prescriber or
 * by a colleague covering for them (`ownOrCovering`) — a coverage names who covers whom, from when until when. A
 * prescriber who may not sign an item still prepares it for signature, as office staff do.
 */

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
