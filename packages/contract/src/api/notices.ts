/** The one-time link of a fax cover sheet (issue 20; decision 0025). */
import { z } from 'zod';
import { isNoticeCode, normalizeNoticeCode } from '../rules/office-digest.ts';

/** The code as typed from paper (dashes, spaces and case do not matter), normalised. */
export const noticeCodeSchema = z
  .string()
  .max(40, { message: 'This is not a notice code.' })
  .transform(normalizeNoticeCode)
  .refine(isNoticeCode, { message: 'This is not a notice code.' });

export const noticeLinkRedeemSchema = z.object({ code: noticeCodeSchema });
export type NoticeLinkRedeem = z.input<typeof noticeLinkRedeemSchema>;

export const noticeLinkRedeemedSchema = z.object({ practiceId: z.string() });
export type NoticeLinkRedeemed = z.infer<typeof noticeLinkRedeemedSchema>;

/** What the screen says when a link cannot be opened (404 and 410 answers carry these). */
export const NOTICE_LINK_MESSAGES = {
  notFound: 'This link is not for your account. Open Action Needed to see your practice’s requests.',
  used: 'This link has already been used or has expired. Open Action Needed to see your practice’s requests.',
} as const;
