/**
 * Notices to practices (issue 20, spec §4 communication preferences): when the pharmacy sends new requests, the
 * practice hears of it as it chose — an e-mail digest, a fax cover sheet, both, or nothing — at most once per
 * interval. Counts and a link only: never a patient's name, a date of birth or a drug, because mails and faxes
 * leave our systems (HIPAA minimum necessary). Server and screens read the same rules.
 */
import type { CommunicationMode } from '../api/practices.ts';
import { ACTION_TYPE_LABELS, ACTION_TYPES, type ActionType } from './action-types.ts';
import { asOneLine } from './text-safety.ts';

export const DIGEST_INTERVAL_MINUTES = 15;
/** Communication modes that get the e-mail digest. */
const DIGEST_EMAIL_MODES: readonly CommunicationMode[] = ['email', 'both'];
const DIGEST_FAX_MODES: readonly CommunicationMode[] = ['fax', 'both'];

/** The channels a communication mode (a practice's or a person's) asks notices by. */
export function noticeChannelsOf(mode: CommunicationMode): { email: boolean; fax: boolean } {
  return { email: DIGEST_EMAIL_MODES.includes(mode), fax: DIGEST_FAX_MODES.includes(mode) };
}

/** A failed notice is tried again after 1 min, doubling to at most an hour, for a day; then it is given up. */
export const NOTICE_RETRY = { baseMs: 60_000, capMs: 3_600_000, giveUpMs: 86_400_000, timeoutMs: 30_000 } as const;
/** How long the one-time link printed on a fax cover sheet opens the list. */
export const NOTICE_LINK_DAYS = 7;

type NewRequests = Partial<Record<ActionType, number>>;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const totalOf = (newRequests: NewRequests) => ACTION_TYPES.reduce((sum, type) => sum + (newRequests[type] ?? 0), 0);
const countLines = (newRequests: NewRequests) =>
  ACTION_TYPES.flatMap((type) => {
    const n = newRequests[type] ?? 0;
    return n > 0 ? [`${ACTION_TYPE_LABELS[type].category}: ${n}`] : [];
  });

/**
 * Whether a portal user of the practice gets the e-mail digest: the practice chose e-mail, the person's own HCP
 * preferences (set in Manage Communications) allow e-mail, and the user has not turned notices off.
 */
export function userGetsDigestMail(input: {
  practiceMode: CommunicationMode;
  hcp: { communicationMode: CommunicationMode; emailOptIn: 'email' | 'doNot' } | null;
  userWantsNotices: boolean;
}): boolean {
  if (!noticeChannelsOf(input.practiceMode).email || !input.userWantsNotices) return false;
  if (!input.hcp) return true;
  return input.hcp.emailOptIn === 'email' && noticeChannelsOf(input.hcp.communicationMode).email;
}

export function officeDigestMail(input: { practiceName: string; newRequests: NewRequests; waiting: number; link: string }): {
  subject: string;
  text: string;
} {
  const total = totalOf(input.newRequests);
  const practiceName = asOneLine(input.practiceName);
  const subject = `HCP Portal: ${plural(total, 'new request', 'new requests')} for ${practiceName}`;
  const text = [
    `${practiceName} has ${plural(total, 'new request', 'new requests')} from the pharmacy:`,
    ...countLines(input.newRequests).map((line) => `- ${line}`),
    '',
    `${plural(input.waiting, 'item is', 'items are')} waiting in all. Sign in to see them:`,
    input.link,
    '',
    'You get this message because your practice chose e-mail in its communication preferences.',
    'To stop it, turn off "E-mail me when the pharmacy sends new requests" in Preferences.',
  ].join('\n');
  return { subject, text };
}

/** What the fax cover sheet says, line by line (the server lays it out on one page). */
export function officeDigestFax(input: {
  practiceName: string;
  newRequests: NewRequests;
  waiting: number;
  /** The one-time link, in full (its code in groups of four, so that it can be typed from paper). */
  link: string;
  /** When the link stops working, as the practice reads it. */
  expires: string;
  sentAt: string;
}): { title: string; intro: string; counts: string[]; waiting: string; linkLines: string[]; footer: string[] } {
  const total = totalOf(input.newRequests);
  return {
    title: 'HCP Portal — new requests from the pharmacy',
    intro: `To: ${asOneLine(input.practiceName)} · ${input.sentAt} · ${plural(total, 'new request', 'new requests')}`,
    counts: countLines(input.newRequests),
    waiting: `${plural(input.waiting, 'item is', 'items are')} waiting in all.`,
    linkLines: [
      'To see them, open this link and sign in:',
      input.link,
      `It works once, until ${input.expires}, for the practice’s own people.`,
    ],
    footer: [
      'This cover sheet names no patient and no medication: sign in to see the requests.',
      'You get it because your practice chose fax in its communication preferences.',
      'If you received this fax in error, please tell the sender and destroy it.',
    ],
  };
}

/** The one-time code of a fax link: 16 letters and digits (Crockford base 32: no I, L, O or U to misread). */
export const NOTICE_CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const NOTICE_CODE_LENGTH = 16;

/** As printed and typed: groups of four joined by dashes. */
export function formatNoticeCode(code: string): string {
  return code.match(/.{1,4}/g)?.join('-') ?? code;
}

/** What a person typed, made comparable: case, spaces and dashes ignored; O read as 0, I and L as 1. */
export function normalizeNoticeCode(typed: string): string {
  return typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
}

export function isNoticeCode(code: string): boolean {
  return code.length === NOTICE_CODE_LENGTH && [...code].every((c) => NOTICE_CODE_ALPHABET.includes(c));
}

/**
 * What the practice's refill and PA choices (spec §4) say about a request the pharmacy sends: null when the practice
 * takes it, else why not, as the pharmacy's system reads it. "Office will choose a substitute" and "pharmacy may
 * substitute" still take the PA request (the answer may be an alternative); "does not do PAs" takes none.
 */
export function requestRefusedByPractice(
  category: ActionType,
  prefs: { refillRequestOption: string; paHandling: string },
): string | null {
  if (category === 'refillAuth') {
    if (prefs.refillRequestOption === 'DoNotAskForRefills') return 'The practice asks not to be sent refill requests.';
    if (prefs.refillRequestOption === 'DoNotAskForRefillsOfficeWillContact') {
      return 'The practice asks not to be sent refill requests: the office will contact the patient.';
    }
  }
  if (category === 'priorAuth' && prefs.paHandling === 'DoNotDoPA') return 'The practice does not do prior authorizations.';
  return null;
}
