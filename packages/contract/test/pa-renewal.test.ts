import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addIsoDays, isPaRenewalReminderDue, paRenewalDueOn } from '../src/index.ts';

const rx = (overrides: Partial<Parameters<typeof isPaRenewalReminderDue>[0]> = {}) => ({
  priorAuthExpiresOn: '2027-03-01',
  priorAuthStatus: null,
  renewalRemindedFor: null,
  ...overrides,
});

describe('PA renewal reminders', () => {
  it('are due from 60 days before the expiry, across month and leap-year ends', () => {
    expect(paRenewalDueOn('2027-03-01')).toBe('2026-12-31');
    expect(paRenewalDueOn('2028-03-01')).toBe('2028-01-01');
    expect(isPaRenewalReminderDue(rx(), '2026-12-30')).toBe(false);
    expect(isPaRenewalReminderDue(rx(), '2026-12-31')).toBe(true);
    expect(isPaRenewalReminderDue(rx(), '2027-04-01')).toBe(true); // lapsed: all the more
  });

  it('once per expiry, never over open PA work, never without an expiry', () => {
    expect(isPaRenewalReminderDue(rx({ renewalRemindedFor: '2027-03-01' }), '2027-01-10')).toBe(false);
    expect(isPaRenewalReminderDue(rx({ renewalRemindedFor: '2026-03-01' }), '2027-01-10')).toBe(true);
    expect(isPaRenewalReminderDue(rx({ priorAuthStatus: 'PRIOR_AUTH_REQUIRED' }), '2027-01-10')).toBe(false);
    expect(isPaRenewalReminderDue(rx({ priorAuthStatus: 'PRIOR_AUTH_DISMISSED' }), '2027-01-10')).toBe(true);
    expect(isPaRenewalReminderDue(rx({ priorAuthExpiresOn: null }), '2027-01-10')).toBe(false);
  });

  it('count calendar days exactly (checked against Date arithmetic for any day and offset)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
        fc.integer({ min: -400, max: 400 }),
        (d, n) => {
          const iso = d.toISOString().slice(0, 10);
          const expected = new Date(Date.parse(`${iso}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
          return addIsoDays(iso, n) === expected;
        },
      ),
    );
  });
});
