/**
 * Derived action types of a prescription (spec §4) and the counts and card groups built from the
 * nested doctors -> patients -> prescriptions answer. Server and web both call these so the badge
 * count in the navigation and the list the server returns can never disagree.
 */

export const PRIOR_AUTH_STATUSES = [
  'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY',
  'PRIOR_AUTH_MD_SIGNATURE_RECEIVED_PHARMACY',
  'PRIOR_AUTH_CHART_NOTES_NEEDED',
  'PRIOR_AUTH_ICD10_NEEDED',
  'PRIOR_AUTH_REQUIRED',
] as const;
export type PriorAuthStatus = (typeof PRIOR_AUTH_STATUSES)[number];

/**
 * Our own reminder (issue 23, rules/pa-renewal.ts): the practice's approved PA lapses soon and plans accept its
 * renewal now. Not a status a pharmacy sends (the FHIR API refuses it as `pa-status`).
 */
export const PRIOR_AUTH_RENEWAL_DUE = 'PRIOR_AUTH_RENEWAL_DUE';
export type PriorAuthActionStatus = PriorAuthStatus | typeof PRIOR_AUTH_RENEWAL_DUE;

/** The prior-auth statuses in which the prescriber must act; MD_SIGNATURE_RECEIVED waits on the pharmacy. */
export const PRIOR_AUTH_ACTION_STATUSES: readonly PriorAuthActionStatus[] = [
  'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY',
  'PRIOR_AUTH_CHART_NOTES_NEEDED',
  'PRIOR_AUTH_REQUIRED',
  'PRIOR_AUTH_ICD10_NEEDED',
  PRIOR_AUTH_RENEWAL_DUE,
];

export const SUBSTITUTION_PENDING_STATUSES = [
  'SUBSTITUTION_PENDING_MD_SELECTION_PATIENT_REQUEST',
  'SUBSTITUTION_PENDING_MD_SELECTION_PRIOR_AUTH',
  'SUBSTITUTION_PENDING_MD_SELECTION_HIGH_COST',
  'SUBSTITUTION_PENDING_MD_SELECTION_OTHER',
] as const;

/** Statuses a substitution reaches after the prescriber answered (our design, DESIGN §5). */
export const SUBSTITUTION_RESOLVED_STATUSES = ['SUBSTITUTION_MD_SELECTED', 'SUBSTITUTION_DECLINED_BY_MD'] as const;

export const SUBSTITUTION_STATUSES = [...SUBSTITUTION_PENDING_STATUSES, ...SUBSTITUTION_RESOLVED_STATUSES] as const;
export type SubstitutionStatus = (typeof SUBSTITUTION_STATUSES)[number];

export const PRIOR_AUTH_METHODS = ['CMM_PA', 'VERBAL_PA', 'WEBLINK_PA'] as const;
export type PriorAuthMethod = (typeof PRIOR_AUTH_METHODS)[number];

export const REFILL_DENIAL_REASONS = ['NEED_OFFICE_VISIT', 'NO_LONGER_TAKING_MEDS', 'POSTPONE_REFILL_AUTH'] as const;
/** The denials that answer a request for good (a postponement asks for its day instead): bulk and prepared ones. */
export const FINAL_DENIAL_REASONS = [
  'NEED_OFFICE_VISIT',
  'NO_LONGER_TAKING_MEDS',
] as const satisfies readonly RefillDenialReason[];
export type RefillDenialReason = (typeof REFILL_DENIAL_REASONS)[number];

/** Categories of the Action Needed screen, in the order the tabs show them. */
export const ACTION_TYPES = ['refillAuth', 'priorAuth', 'phoneException', 'altMed', 'appeals'] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** How each category reads on screen: one request, and the category as a whole (shared by every feature that links to a request). */
export const ACTION_TYPE_LABELS: Record<ActionType, { request: string; category: string }> = {
  refillAuth: { request: 'Refill authorization', category: 'Refill authorizations' },
  priorAuth: { request: 'Prior authorization', category: 'Prior authorizations' },
  phoneException: { request: 'Phone number exception', category: 'Phone exceptions' },
  altMed: { request: 'Alternative medication', category: 'Alternative medications' },
  appeals: { request: 'Appeal', category: 'Appeals' },
};

export function isActionType(value: string | null | undefined): value is ActionType {
  return typeof value === 'string' && (ACTION_TYPES as readonly string[]).includes(value);
}

/** The fields the rules read; the full prescription schema lives in api/prescriptions.ts. */
export interface ActionFields {
  needsRefillAuth: boolean;
  phoneException: boolean;
  substitutionStatus: string | null;
  priorAuthStatus: string | null;
  hcpActionRequired: boolean;
}

const substitutionPending: ReadonlySet<string> = new Set(SUBSTITUTION_PENDING_STATUSES);
const priorAuthAction: ReadonlySet<string> = new Set(PRIOR_AUTH_ACTION_STATUSES);

export function needsAltMed(rx: ActionFields): boolean {
  return rx.substitutionStatus !== null && substitutionPending.has(rx.substitutionStatus);
}

export function needsPriorAuth(rx: Pick<ActionFields, 'priorAuthStatus'>): boolean {
  return rx.priorAuthStatus !== null && priorAuthAction.has(rx.priorAuthStatus);
}

/** A prior authorization that waits for the office's chart notes (with an ICD-10 code, for the second). */
export const needsChartNotes = (priorAuthStatus: string | null): boolean =>
  priorAuthStatus === 'PRIOR_AUTH_CHART_NOTES_NEEDED' || priorAuthStatus === 'PRIOR_AUTH_ICD10_NEEDED';

/**
 * A notice that the plan requires a prior authorization: it asks nothing of the office here but to be seen and
 * dismissed (the PA itself is started on the plan's channel), so it is what bulk dismissing is for.
 */
export const onlyNeedsDismissing = (priorAuthStatus: string | null): boolean => priorAuthStatus === 'PRIOR_AUTH_REQUIRED';

/** Every action type a prescription needs; one prescription may need several. */
export function deriveActionTypes(rx: ActionFields): ActionType[] {
  const types: ActionType[] = [];
  if (rx.needsRefillAuth) types.push('refillAuth');
  if (needsPriorAuth(rx)) types.push('priorAuth');
  if (rx.phoneException) types.push('phoneException');
  if (needsAltMed(rx)) types.push('altMed');
  if (rx.hcpActionRequired) types.push('appeals');
  return types;
}

export function hasActionType(rx: ActionFields, type: ActionType): boolean {
  return deriveActionTypes(rx).includes(type);
}

export interface ActionNeededCounts {
  altMed: number;
  appeals: number;
  phoneException: number;
  priorAuth: number;
  refillAuth: number;
  total: number;
  fetched: boolean;
}

export const EMPTY_COUNTS: ActionNeededCounts = {
  altMed: 0,
  appeals: 0,
  phoneException: 0,
  priorAuth: 0,
  refillAuth: 0,
  total: 0,
  fetched: false,
};

interface NestedRx extends ActionFields {
  id: string;
  patientID: string;
}
interface NestedPatient<R extends NestedRx> {
  id: string;
  prescriptions: R[];
}
interface NestedDoctor<R extends NestedRx, P extends NestedPatient<R>> {
  doctorId: string;
  patients: P[];
}

export interface ActionEntry<R, P, D> {
  doctor: D;
  patient: P;
  prescription: R;
  actionTypes: ActionType[];
}

/**
 * Flattens the nested answer into one entry per prescription whose patient is present in the
 * answer. A prescription whose patientID points at no patient of the answer is dropped (spec §4:
 * counted only if its patient is found) — it could not be shown on a patient card anyway.
 */
export function flattenActionNeeded<R extends NestedRx, P extends NestedPatient<R>, D extends NestedDoctor<R, P>>(
  doctors: readonly D[],
): ActionEntry<R, P, D>[] {
  const patientsById = new Map<string, P>();
  for (const doctor of doctors) {
    for (const patient of doctor.patients) patientsById.set(patient.id, patient);
  }
  const entries: ActionEntry<R, P, D>[] = [];
  for (const doctor of doctors) {
    for (const patient of doctor.patients) {
      for (const prescription of patient.prescriptions) {
        const owner = patientsById.get(prescription.patientID);
        if (!owner) continue;
        entries.push({
          doctor,
          patient: owner,
          prescription,
          actionTypes: deriveActionTypes(prescription),
        });
      }
    }
  }
  return entries;
}

/** Spec §4: the total is the sum of the five categories (a prescription in two categories counts twice). */
export function totalOfCounts(counts: Pick<ActionNeededCounts, ActionType>): number {
  return counts.altMed + counts.appeals + counts.phoneException + counts.priorAuth + counts.refillAuth;
}

/** Counts per category and their total. */
export function countActionNeeded(entries: readonly { actionTypes: readonly ActionType[] }[]): ActionNeededCounts {
  const counts = { ...EMPTY_COUNTS, fetched: true };
  for (const entry of entries) {
    for (const type of entry.actionTypes) counts[type] += 1;
  }
  counts.total = totalOfCounts(counts);
  return counts;
}

export interface PatientCard<R, P, D> {
  doctor: D;
  patient: P;
  prescriptions: R[];
}

export interface CardGroups<R, P, D> {
  altMeds: PatientCard<R, P, D>[];
  appeals: PatientCard<R, P, D>[];
  phoneExceptions: PatientCard<R, P, D>[];
  priorAuth: PatientCard<R, P, D>[];
  refillAuth: PatientCard<R, P, D>[];
  all: PatientCard<R, P, D>[];
}

const GROUP_OF: Record<ActionType, Exclude<keyof CardGroups<unknown, unknown, unknown>, 'all'>> = {
  altMed: 'altMeds',
  appeals: 'appeals',
  phoneException: 'phoneExceptions',
  priorAuth: 'priorAuth',
  refillAuth: 'refillAuth',
};

/**
 * One card per prescriber, patient and category, holding that patient's prescriptions of the category by
 * that prescriber, in answer order — as the §3 nested answer groups them. A card names one prescriber, so
 * it never holds another's prescriptions (issue 21: a patient seen by two doctors showed both doctors'
 * prescriptions under the first one's name).
 */
export function buildCardGroups<R extends { id: string }, P extends { id: string }, D extends { doctorId: string }>(
  entries: readonly ActionEntry<R, P, D>[],
): CardGroups<R, P, D> {
  const groups: CardGroups<R, P, D> = {
    altMeds: [],
    appeals: [],
    phoneExceptions: [],
    priorAuth: [],
    refillAuth: [],
    all: [],
  };
  const index = new Map<string, PatientCard<R, P, D>>();
  const add = (group: keyof CardGroups<R, P, D>, entry: ActionEntry<R, P, D>) => {
    const key = `${group}\u0000${entry.doctor.doctorId}\u0000${entry.patient.id}`;
    let card = index.get(key);
    if (!card) {
      card = { doctor: entry.doctor, patient: entry.patient, prescriptions: [] };
      index.set(key, card);
      groups[group].push(card);
    }
    if (!card.prescriptions.some((rx) => rx.id === entry.prescription.id)) {
      card.prescriptions.push(entry.prescription);
    }
  };
  for (const entry of entries) {
    if (entry.actionTypes.length === 0) continue;
    for (const type of entry.actionTypes) add(GROUP_OF[type], entry);
    add('all', entry);
  }
  return groups;
}

/** Patients with a phone exception, keyed by patient id (the resolve-exceptions screen edits these). */
export function phoneExceptionsByPatient<R extends NestedRx, P extends { id: string }, D>(
  entries: readonly ActionEntry<R, P, D>[],
): Map<string, { patient: P; prescriptions: R[] }> {
  const map = new Map<string, { patient: P; prescriptions: R[] }>();
  for (const entry of entries) {
    if (!entry.actionTypes.includes('phoneException')) continue;
    const item = map.get(entry.patient.id) ?? { patient: entry.patient, prescriptions: [] };
    item.prescriptions.push(entry.prescription);
    map.set(entry.patient.id, item);
  }
  return map;
}

/** Ids of prescriptions whose prior-auth status is PRIOR_AUTH_REQUIRED (the bulk dismiss acts on them). */
export function priorAuthRequiredIds(entries: readonly { prescription: NestedRx }[]): string[] {
  return entries.filter((entry) => onlyNeedsDismissing(entry.prescription.priorAuthStatus)).map((entry) => entry.prescription.id);
}
