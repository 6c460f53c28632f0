/** Who hears of new requests, what the notices say, the fax link's code, and what a practice said not to be sent. */
import { describe, expect, it } from 'vitest';
import {
  formatNoticeCode,
  isNoticeCode,
  normalizeNoticeCode,
  noticeLinkRedeemSchema,
  officeDigestFax,
  officeDigestMail,
  requestRefusedByPractice,
  userGetsDigestMail,
} from '../src/index.ts';

describe('userGetsDigestMail', () => {
  const hcp = { communicationMode: 'email', emailOptIn: 'email' } as const;
  it('follows the practice, then the person’s HCP record, then their own choice', () => {
    expect(userGetsDigestMail({ practiceMode: 'email', hcp, userWantsNotices: true })).toBe(true);
    expect(userGetsDigestMail({ practiceMode: 'both', hcp: null, userWantsNotices: true })).toBe(true);
    expect(userGetsDigestMail({ practiceMode: 'fax', hcp, userWantsNotices: true })).toBe(false);
    expect(userGetsDigestMail({ practiceMode: 'off', hcp, userWantsNotices: true })).toBe(false);
    expect(userGetsDigestMail({ practiceMode: 'email', hcp, userWantsNotices: false })).toBe(false);
    expect(userGetsDigestMail({ practiceMode: 'email', hcp: { ...hcp, emailOptIn: 'doNot' }, userWantsNotices: true })).toBe(
      false,
    );
    expect(userGetsDigestMail({ practiceMode: 'email', hcp: { ...hcp, communicationMode: 'off' }, userWantsNotices: true })).toBe(
      false,
    );
    expect(
      userGetsDigestMail({ practiceMode: 'email', hcp: { ...hcp, communicationMode: 'both' }, userWantsNotices: true }),
    ).toBe(true);
  });
});

describe('notice texts', () => {
  const counts = { practiceName: 'Morgan Family Medicine', newRequests: { refillAuth: 1, appeals: 2 }, waiting: 1 };
  it('counts per category in the screen order, singular and plural, and says how to stop', () => {
    const mail = officeDigestMail({ ...counts, link: 'https://portal.test/action-needed' });
    expect(mail.subject).toBe('HCP Portal: 3 new requests for Morgan Family Medicine');
    expect(mail.text.split('\n').slice(0, 4)).toEqual([
      'Morgan Family Medicine has 3 new requests from the pharmacy:',
      '- Refill authorizations: 1',
      '- Appeals: 2',
      '',
    ]);
    expect(mail.text).toContain('1 item is waiting in all.');
    expect(mail.text).toContain('turn off "E-mail me when the pharmacy sends new requests" in Preferences');
  });
  it('keeps a practice name stored with line breaks or text-direction characters on one line (issue 43)', () => {
    const name = 'Lake\r\nBcc: x@example.com \u202eciniLC\u0007';
    const mail = officeDigestMail({ ...counts, practiceName: name, link: 'https://portal.test/action-needed' });
    expect(mail.subject).toBe('HCP Portal: 3 new requests for Lake Bcc: x@example.com ciniLC');
    expect(mail.text.split('\n')[0]).toBe('Lake Bcc: x@example.com ciniLC has 3 new requests from the pharmacy:');
    const fax = officeDigestFax({ ...counts, practiceName: name, link: 'l', expires: 'e', sentAt: 's' });
    expect(fax.intro).toBe('To: Lake Bcc: x@example.com ciniLC · s · 3 new requests');
  });
  it('lays the fax out as title, counts, the link and when it stops working', () => {
    const fax = officeDigestFax({
      ...counts,
      link: 'https://portal.test/notice/ABCD-EFGH-JKMN-PQRS',
      expires: 'Dec 1, 2026',
      sentAt: 'Nov 24, 2026',
    });
    expect(fax.intro).toBe('To: Morgan Family Medicine · Nov 24, 2026 · 3 new requests');
    expect(fax.counts).toEqual(['Refill authorizations: 1', 'Appeals: 2']);
    expect(fax.linkLines).toContain('https://portal.test/notice/ABCD-EFGH-JKMN-PQRS');
    expect(fax.linkLines.join(' ')).toContain('until Dec 1, 2026');
  });
});

describe('notice codes', () => {
  it('are typed from paper: groups of four, any case, spaces or dashes, O for 0 and I or L for 1', () => {
    expect(formatNoticeCode('ABCDEFGHJKMN0123')).toBe('ABCD-EFGH-JKMN-0123');
    expect(normalizeNoticeCode('abcd efgh-jkmn-o1l3')).toBe('ABCDEFGHJKMN0113');
    expect(isNoticeCode('ABCDEFGHJKMN0123')).toBe(true);
    expect(isNoticeCode('ABCDEFGHJKMN012')).toBe(false);
    expect(isNoticeCode('ABCDEFGHJKMN012U')).toBe(false);
    expect(noticeLinkRedeemSchema.parse({ code: 'abcd-efgh-jkmn-0123' })).toEqual({ code: 'ABCDEFGHJKMN0123' });
    expect(noticeLinkRedeemSchema.safeParse({ code: 'x'.repeat(41) }).success).toBe(false);
  });
});

describe('requestRefusedByPractice', () => {
  const takes = { refillRequestOption: 'eRx', paHandling: 'PAViaMDDash' };
  it('refuses refill requests when the practice asked for none, and PAs when it does none', () => {
    expect(requestRefusedByPractice('refillAuth', takes)).toBeNull();
    expect(requestRefusedByPractice('refillAuth', { ...takes, refillRequestOption: 'Fax' })).toBeNull();
    expect(requestRefusedByPractice('refillAuth', { ...takes, refillRequestOption: 'DoNotAskForRefills' })).toMatch(/refill/);
    expect(
      requestRefusedByPractice('refillAuth', { ...takes, refillRequestOption: 'DoNotAskForRefillsOfficeWillContact' }),
    ).toMatch(/office will contact the patient/);
    expect(requestRefusedByPractice('priorAuth', { ...takes, paHandling: 'DoNotDoPA' })).toMatch(/does not do prior/);
    expect(requestRefusedByPractice('priorAuth', { ...takes, paHandling: 'MDOWillSubstitute' })).toBeNull();
    expect(requestRefusedByPractice('altMed', { refillRequestOption: 'DoNotAskForRefills', paHandling: 'DoNotDoPA' })).toBeNull();
  });
});
