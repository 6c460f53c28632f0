/**
 * The practice's e-mail digest (issue 20, spec §4 communication preferences): new requests counted per category and
 * a link, at most one mail per practice per interval. Never a patient's name, a date of birth or a drug: the mail
 * leaves our systems (HIPAA minimum necessary).
 */
import { ACTION_TYPE_LABELS, ACTION_TYPES, type ActionType } from './action-types.ts';

export const DIGEST_INTERVAL_MINUTES = 15;
/** Communication modes that get the e-mail digest. */
export const DIGEST_EMAIL_MODES = ['email', 'both'] as const;

export function officeDigestMail(input: {
  practiceName: string;
  newRequests: Partial<Record<ActionType, number>>;
  waiting: number;
  link: string;
}): { subject: string; text: string } {
  const lines = ACTION_TYPES.flatMap((type) => {
    const n = input.newRequests[type] ?? 0;
    return n > 0 ? [`- ${ACTION_TYPE_LABELS[type].category}: ${n}`] : [];
  });
  const total = ACTION_TYPES.reduce((sum, type) => sum + (input.newRequests[type] ?? 0), 0);
  const subject = `HCP Portal: ${total} new ${total === 1 ? 'request' : 'requests'} for ${input.practiceName}`;
  const text = [
    `${input.practiceName} has ${total} new ${total === 1 ? 'request' : 'requests'} from the pharmacy:`,
    ...lines,
    '',
    `${input.waiting} ${input.waiting === 1 ? 'item is' : 'items are'} waiting in all. Sign in to see them:`,
    input.link,
    '',
    'You get this message because your practice chose e-mail in its communication preferences.',
  ].join('\n');
  return { subject, text };
}
