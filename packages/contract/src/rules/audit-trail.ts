/**
 * The audit trail a privacy officer reads (issue 49, decision 0061): what each kind of audit row means in words, by
 * which path it came, the simple rules that mark an access as unusual, and the CSV cell that a spreadsheet cannot run.
 * The server and the screens both read these, so a report and its export say the same.
 */

export const AUDIT_PAGE_SIZE = 50;
/** An export holds at most this many rows: a wider one is refused with a clear message (narrow the dates). */
export const AUDIT_EXPORT_MAX_ROWS = 10_000;
/** The widest range of a person's or patient's report: the retention period (six years). */
export const AUDIT_REPORT_MAX_DAYS = 2192;
/** The widest range of the review lists (support windows, unusual access): a quarter. */
export const AUDIT_REVIEW_MAX_DAYS = 92;
export const AUDIT_NOTE_MAX = 1000;

export const AUDIT_CHANNELS = ['portal', 'support', 'pharmacy', 'appeal-link'] as const;
export type AuditChannel = (typeof AUDIT_CHANNELS)[number];
export const AUDIT_CHANNEL_LABELS: Record<AuditChannel, string> = {
  portal: 'Portal',
  support: 'Support window',
  pharmacy: 'Pharmacy system',
  'appeal-link': 'Appeal link',
};

/** What the channel rule reads of a row: who acted (their login role, none for a system) and its details. */
export interface ChannelInput {
  actorRole: string | null;
  action: string;
  details: { clientId?: unknown; via?: unknown };
}

/**
 * The path an access came by: a pharmacy's system (no person, a client id), the appeal link a pharmacy sent, the
 * provider's people (only inside a support window can they read patient data), or the portal.
 */
export function auditChannelOf(row: ChannelInput): AuditChannel {
  if (row.actorRole === null && row.details.clientId !== undefined) return 'pharmacy';
  if (row.details.via === 'pharmacy-link' || row.action === 'appeal.auth.link') return 'appeal-link';
  if (row.actorRole === 'provider.admin' || row.actorRole === 'provider.sales') return 'support';
  return 'portal';
}

/** FHIR AuditEvent.action: Create, Read, Update, Delete, Execute. */
export type AuditVerb = 'C' | 'R' | 'U' | 'D' | 'E';

const DECISIONS: Record<string, string> = {
  refillAuthorizedFax: 'Authorized a refill (fax)',
  refillAuthorizedErx: 'Authorized a refill (eRx)',
  refillDenied: 'Denied a refill',
  refillPostponed: 'Postponed a refill',
  alternativeMed: 'Chose an alternative medication',
  chartNotesSent: 'Sent chart notes for a prior authorization',
  priorAuthDismiss: 'Dismissed a prior authorization',
  mdSignatureReceived: 'Marked a prior authorization signed',
};

/** Known actions in words, with their FHIR verb; `prescription.<decision>` rows are described from DECISIONS. */
const ACTIONS: Record<string, [string, AuditVerb]> = {
  'patients.read': ["Opened the patient's record", 'R'],
  'patients.search': ['Searched patients', 'R'],
  'comments.read': ["Read the patient's comments", 'R'],
  'comments.reply': ['Replied to a patient comment', 'C'],
  'comments.list': ['Read the comment list', 'R'],
  'comments.mentions.read': ['Marked mentions read', 'U'],
  'action-needed.read': ['Read the Action Needed list', 'R'],
  'action-queue.read': ['Read the work queue', 'R'],
  'rx-list.read': ['Read the Rx list', 'R'],
  'prescription.events.read': ["Read a prescription's history", 'R'],
  'prescription.earlier-chart-notes.read': ['Read earlier chart notes', 'R'],
  'prescription.alternative-meds-print.read': ['Printed an alternative medication request', 'R'],
  'prescription.create': ['Wrote a new prescription', 'C'],
  'prescription.prepare': ['Prepared a decision for signature', 'U'],
  'prescription.prepare-withdraw': ['Withdrew a prepared decision', 'U'],
  'prescription.sign-prepared': ['Signed a prepared decision', 'U'],
  'prescription.decision.undone': ['Undid a decision', 'U'],
  'prescription.epcs.shown': ['Opened a controlled-substance signing', 'R'],
  'patient.phone-exception.resolved': ["Resolved a patient's phone exception", 'U'],
  'appeal.file.read': ['Downloaded an appeal file', 'R'],
  'appeal.upload': ['Uploaded an appeal file', 'C'],
  'appeal.submit': ['Submitted an appeal', 'U'],
  'appeal.file.reuse': ['Reused an earlier appeal file', 'C'],
  'appeal.file.remove': ['Removed an appeal file', 'D'],
  'appeal.auth.portal': ['Opened an appeal', 'R'],
  'standing-rule.preview': ['Previewed a standing rule', 'R'],
  'standing-rule.created': ['Created a standing rule', 'C'],
  'standing-rule.updated': ['Changed a standing rule', 'U'],
  'standing-rule.deleted': ['Deleted a standing rule', 'D'],
  'epcs.sign': ['Signed a controlled substance (EPCS)', 'U'],
  'epcs.report.read': ['Read the EPCS report', 'R'],
  'support-access.opened': ['Opened a support window', 'E'],
  'support-access.ended': ['Ended a support window', 'E'],
  'audit.patient-access.read': ['Read a patient access report', 'R'],
  'audit.user-activity.read': ['Read a user activity report', 'R'],
  'audit.export': ['Exported an audit report', 'R'],
};

export interface AuditActionMeaning {
  description: string;
  verb: AuditVerb;
  refused: boolean;
}

/** An action code in words: refusals say so, FHIR reads and writes name their resource, unknown codes stay as codes. */
export function auditActionMeaning(action: string): AuditActionMeaning {
  const refused = action.endsWith('.refused');
  const code = refused ? action.slice(0, -'.refused'.length) : action;
  const known = ACTIONS[code];
  const decision = code.startsWith('prescription.') ? DECISIONS[code.slice('prescription.'.length)] : undefined;
  const fhir = /^fhir\.(\w+)\.(read|vread|search|create|update|patch)$/.exec(code);
  const [description, verb]: [string, AuditVerb] = known
    ? known
    : decision
      ? [decision, 'U']
      : fhir
        ? [
            `${fhir[2] === 'search' ? 'Searched' : fhir[2]?.endsWith('read') ? 'Read' : 'Wrote'} FHIR ${fhir[1]}`,
            fhir[2]?.endsWith('read') || fhir[2] === 'search' ? 'R' : fhir[2] === 'create' ? 'C' : 'U',
          ]
        : [code, 'E'];
  return { description: refused ? `Refused: ${description}` : description, verb, refused };
}

/** Reads of patient data by people (the unusual-access rules look only at these; reviewing is not one). */
export const PATIENT_READ_ACTIONS = Object.entries(ACTIONS)
  .filter(([code, [, verb]]) => verb === 'R' && !code.startsWith('audit.'))
  .map(([code]) => code);
/** Reads of one patient's record (the rule of reads without open work looks at these). */
export const RECORD_READ_ACTIONS = [
  'patients.read',
  'comments.read',
  'prescription.events.read',
  'prescription.earlier-chart-notes.read',
  'appeal.file.read',
] as const;

/**
 * Unusual access: three simple rules a privacy office can explain to the person concerned. Each finding is cleared
 * by a reviewer with a note; a rule never blocks anyone.
 */
export const UNUSUAL_ACCESS_RULES = {
  noOpenWork: {
    title: 'Record read without open work',
    explanation:
      "Someone at a practice opened a patient's record or comments while that patient has no request waiting at any of their practices (as Action Needed counts them today) and they changed nothing for the patient that day.",
  },
  manyPatients: {
    title: 'Many patients in a short time',
    explanation:
      'Someone read the records of 20 or more different patients in one 10-minute period of the clock (9:00–9:10, 9:10–9:20 …).',
    patients: 20,
    minutes: 10,
  },
  afterHours: {
    title: 'Reads outside working hours',
    explanation: "Someone read patient data before 6:00 or after 20:00 (the tenant's time zone), or on a weekend.",
    startHour: 6,
    endHour: 20,
  },
} as const;
export type UnusualAccessRule = keyof typeof UNUSUAL_ACCESS_RULES;
export const UNUSUAL_ACCESS_RULE_KEYS = Object.keys(UNUSUAL_ACCESS_RULES) as [UnusualAccessRule, ...UnusualAccessRule[]];

/** Outside working hours: before the start hour, from the end hour, or Saturday and Sunday (local time parts). */
export function isAfterHours(local: { hour: number; weekday: number }): boolean {
  const { startHour, endHour } = UNUSUAL_ACCESS_RULES.afterHours;
  return local.weekday === 0 || local.weekday === 6 || local.hour < startHour || local.hour >= endHour;
}

/**
 * One CSV cell (RFC 4180), safe to open in a spreadsheet: text that a spreadsheet would run as a formula (starting
 * with = + - @, a tab or a carriage return) is kept as text with a leading apostrophe (OWASP's CSV injection advice).
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly (string | number | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

/** The calendar day `days` after (or before) an ISO day: the reports' default range ends today. */
export function shiftIsoDay(iso: string, days: number): string {
  const [year, month, day] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** How many patients a report row names before it folds the rest ("and 47 more"): a list read names every row shown. */
export const AUDIT_ROW_PATIENTS_SHOWN = 3;
export const AUDIT_HIDDEN_PATIENT = 'Not shown';

/**
 * The patients of one report row in words: the first few names (a patient outside the reviewer's reach reads "Not
 * shown"), the rest folded under a count the screen can open. The CSV export keeps every name.
 */
export function auditRowPatients(names: readonly (string | null)[], shown = AUDIT_ROW_PATIENTS_SHOWN) {
  const words = names.map((name) => name ?? AUDIT_HIDDEN_PATIENT);
  // Folding a single name would take as much room as showing it.
  const cut = words.length <= shown + 1 ? words.length : shown;
  return { first: words.slice(0, cut).join(', '), rest: words.slice(cut) };
}
