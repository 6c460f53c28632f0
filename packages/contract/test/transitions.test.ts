import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BULK_ACTIONS, tellsPharmacy } from '../src/api/action-queue.ts';
import { PRIOR_AUTH_STATUSES, SUBSTITUTION_STATUSES } from '../src/rules/action-types.ts';
import { dayInZone } from '../src/rules/dates.ts';
import { addIsoDays } from '../src/rules/pa-renewal.ts';
import {
  isActionAllowed,
  isRefillDue,
  PRESCRIPTION_ACTIONS,
  postponeDateProblem,
  postponeDateProblemAt,
  postponePresets,
} from '../src/rules/transitions.ts';

const none = { refillDue: false, phoneException: false, substitutionStatus: null, priorAuthStatus: null };

describe('transition rules (DESIGN §5)', () => {
  it('allows refill actions only while a refill is due', () => {
    for (const action of ['refillAuthorizedFax', 'refillAuthorizedErx', 'refillDenied', 'refillPostponed'] as const) {
      expect(isActionAllowed(action, { ...none, refillDue: true })).toBe(true);
      expect(isActionAllowed(action, none)).toBe(false);
    }
  });
  it('allows the alternative-medication answer only while the MD selection is pending', () => {
    expect(isActionAllowed('alternativeMed', { ...none, substitutionStatus: 'SUBSTITUTION_PENDING_MD_SELECTION_OTHER' })).toBe(
      true,
    );
    expect(isActionAllowed('alternativeMed', { ...none, substitutionStatus: 'SUBSTITUTION_MD_SELECTED' })).toBe(false);
  });
  it('maps prior-auth statuses to the actions they allow', () => {
    const allowed = (status: string) =>
      (['priorAuthDismiss', 'mdSignatureReceived', 'chartNotesSent'] as const).filter((a) =>
        isActionAllowed(a, { ...none, priorAuthStatus: status }),
      );
    expect(allowed('PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY')).toEqual(['priorAuthDismiss', 'mdSignatureReceived']);
    expect(allowed('PRIOR_AUTH_CHART_NOTES_NEEDED')).toEqual(['priorAuthDismiss', 'chartNotesSent']);
    expect(allowed('PRIOR_AUTH_ICD10_NEEDED')).toEqual(['priorAuthDismiss', 'chartNotesSent']);
    expect(allowed('PRIOR_AUTH_REQUIRED')).toEqual(['priorAuthDismiss']);
    expect(allowed('PRIOR_AUTH_MD_SIGNATURE_RECEIVED_PHARMACY')).toEqual([]);
  });
  it('allows nothing on a prescription that needs nothing, whatever its other statuses', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(null, 'SUBSTITUTION_MD_SELECTED', 'SUBSTITUTION_DECLINED_BY_MD'),
        fc.constantFrom(null, 'PRIOR_AUTH_MD_SIGNATURE_RECEIVED_PHARMACY', 'PRIOR_AUTH_DISMISSED'),
        (substitutionStatus, priorAuthStatus) => {
          const state = { ...none, substitutionStatus, priorAuthStatus };
          return PRESCRIPTION_ACTIONS.every((a) => !isActionAllowed(a, state));
        },
      ),
    );
    expect(SUBSTITUTION_STATUSES.length + PRIOR_AUTH_STATUSES.length).toBeGreaterThan(0);
  });
});

describe('isRefillDue', () => {
  it('is due unless postponed to a later day', () => {
    expect(isRefillDue(true, null, '2026-11-20')).toBe(true);
    expect(isRefillDue(true, '2026-11-20', '2026-11-20')).toBe(true);
    expect(isRefillDue(true, '2026-11-21', '2026-11-20')).toBe(false);
    expect(isRefillDue(false, null, '2026-11-20')).toBe(false);
  });
});

describe('postponeDateProblem', () => {
  it('wants a day after today and within a year', () => {
    expect(postponeDateProblem('2026-11-21', '2026-11-20')).toBeNull();
    expect(postponeDateProblem('2027-11-20', '2026-11-20')).toBeNull();
    expect(postponeDateProblem('2026-11-20', '2026-11-20')).toBe('Choose a date after today.');
    expect(postponeDateProblem('2027-11-21', '2026-11-20')).toBe('Choose a date within one year.');
  });
});

describe('postponeDateProblemAt: the server, which does not know the person’s zone (decision 0065)', () => {
  it('takes a New York prescriber’s “tomorrow” after 19:00, when the server’s own calendar (UTC) has moved on', () => {
    const evening = new Date('2026-12-05T02:00:00Z'); // 21:00 on 12/04 in New York
    expect(postponeDateProblem('2026-12-05', dayInZone('America/New_York', evening))).toBeNull();
    expect(postponeDateProblem('2026-12-05', dayInZone('UTC', evening))).toBe('Choose a date after today.');
    expect(postponeDateProblemAt('2026-12-05', evening)).toBeNull();
    // Today nearly everywhere, and the day before where the date is earliest: after today nowhere.
    expect(postponeDateProblemAt('2026-12-04', evening)).toBe('Choose a date after today.');
    // A year from the day where it is latest (Kiritimati, UTC+14: 12/05), and a day past it.
    expect(postponeDateProblemAt('2027-12-05', evening)).toBeNull();
    expect(postponeDateProblemAt('2027-12-06', evening)).toBe('Choose a date within one year.');
  });

  const ZONES = [
    'Etc/GMT+12',
    'Pacific/Honolulu',
    'America/Los_Angeles',
    'America/New_York',
    'UTC',
    'Asia/Kolkata',
    'Pacific/Kiritimati',
  ];
  const instants = fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true });

  it('never refuses a day the page accepts, in any zone', () => {
    fc.assert(
      fc.property(instants, fc.constantFrom(...ZONES), fc.integer({ min: -3, max: 370 }), (at, zone, ahead) => {
        const today = dayInZone(zone, at);
        const day = addIsoDays(today, ahead);
        if (postponeDateProblem(day, today) === null) expect(postponeDateProblemAt(day, at)).toBeNull();
      }),
    );
  });

  it('refuses a day that no zone’s page would take', () => {
    fc.assert(
      fc.property(instants, fc.integer({ min: -400, max: 800 }), (at, offset) => {
        const day = addIsoDays(dayInZone('UTC', at), offset);
        const takenSomewhere = ZONES.some((zone) => postponeDateProblem(day, dayInZone(zone, at)) === null);
        expect(postponeDateProblemAt(day, at) === null).toBe(takenSomewhere);
      }),
    );
  });
});

describe('postponePresets (issue 47)', () => {
  it('are 7, 14 and 30 calendar days on, across month, year and leap-day ends, and every one is a day a postponement takes', () => {
    expect(postponePresets('2026-12-28').map((p) => p.iso)).toEqual(['2027-01-04', '2027-01-11', '2027-01-27']);
    expect(postponePresets('2028-02-22').map((p) => p.iso)).toEqual(['2028-02-29', '2028-03-07', '2028-03-23']);
    fc.assert(
      fc.property(fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }), (date) => {
        const today = date.toISOString().slice(0, 10);
        for (const { iso } of postponePresets(today)) expect(postponeDateProblem(iso, today)).toBeNull();
      }),
    );
  });
});

describe('tellsPharmacy (issue 47)', () => {
  it('is false only for a postponement: the toast says a decision goes to the pharmacy only when it does', () => {
    expect(BULK_ACTIONS.filter((action) => !tellsPharmacy(action))).toEqual(['refillPostpone']);
  });
});
