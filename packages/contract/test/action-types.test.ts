import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type ActionFields,
  buildCardGroups,
  countActionNeeded,
  deriveActionTypes,
  flattenActionNeeded,
  PRIOR_AUTH_STATUSES,
  phoneExceptionsByPatient,
  priorAuthRequiredIds,
  SUBSTITUTION_PENDING_STATUSES,
  SUBSTITUTION_STATUSES,
} from '../src/index.ts';

const none: ActionFields = {
  needsRefillAuth: false,
  phoneException: false,
  substitutionStatus: null,
  priorAuthStatus: null,
  hcpActionRequired: false,
};

describe('deriveActionTypes', () => {
  it('gives nothing for a prescription that needs nothing', () => {
    expect(deriveActionTypes(none)).toEqual([]);
  });

  it('derives each category from its field', () => {
    expect(deriveActionTypes({ ...none, needsRefillAuth: true })).toEqual(['refillAuth']);
    expect(deriveActionTypes({ ...none, phoneException: true })).toEqual(['phoneException']);
    expect(deriveActionTypes({ ...none, hcpActionRequired: true })).toEqual(['appeals']);
  });

  it('treats exactly the four SUBSTITUTION_PENDING_MD_SELECTION_* statuses as alternative medication', () => {
    for (const status of SUBSTITUTION_STATUSES) {
      const expected = (SUBSTITUTION_PENDING_STATUSES as readonly string[]).includes(status) ? ['altMed'] : [];
      expect(deriveActionTypes({ ...none, substitutionStatus: status })).toEqual(expected);
    }
    expect(SUBSTITUTION_PENDING_STATUSES).toHaveLength(4);
  });

  it('needs prior auth for every PA status except MD signature received', () => {
    for (const status of PRIOR_AUTH_STATUSES) {
      const expected = status === 'PRIOR_AUTH_MD_SIGNATURE_RECEIVED_PHARMACY' ? [] : ['priorAuth'];
      expect(deriveActionTypes({ ...none, priorAuthStatus: status })).toEqual(expected);
    }
  });

  it('ignores unknown statuses', () => {
    expect(deriveActionTypes({ ...none, substitutionStatus: 'SOMETHING', priorAuthStatus: 'PRIOR_AUTH_X' })).toEqual([]);
  });

  it('gives several types when several apply', () => {
    expect(
      deriveActionTypes({
        needsRefillAuth: true,
        phoneException: true,
        substitutionStatus: 'SUBSTITUTION_PENDING_MD_SELECTION_OTHER',
        priorAuthStatus: 'PRIOR_AUTH_REQUIRED',
        hcpActionRequired: true,
      }),
    ).toEqual(['refillAuth', 'priorAuth', 'phoneException', 'altMed', 'appeals']);
  });
});

const rxArb = (patientIds: string[]) =>
  fc.record({
    id: fc.uuid(),
    patientID: fc.constantFrom(...patientIds, 'missing-patient'),
    needsRefillAuth: fc.boolean(),
    phoneException: fc.boolean(),
    substitutionStatus: fc.option(fc.constantFrom(...SUBSTITUTION_STATUSES), { nil: null }),
    priorAuthStatus: fc.option(fc.constantFrom(...PRIOR_AUTH_STATUSES), { nil: null }),
    hcpActionRequired: fc.boolean(),
  });

const nestedArb = fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 6 }).chain((patientIds) =>
  fc.array(
    fc.record({
      doctorId: fc.uuid(),
      patients: fc
        .subarray(patientIds)
        .chain((ids) =>
          fc.tuple(
            ...ids.map((id) => fc.record({ id: fc.constant(id), prescriptions: fc.array(rxArb(patientIds), { maxLength: 4 }) })),
          ),
        ),
    }),
    { maxLength: 4 },
  ),
);

describe('counts', () => {
  it('total is the sum of the five categories', () => {
    fc.assert(
      fc.property(nestedArb, (doctors) => {
        const counts = countActionNeeded(flattenActionNeeded(doctors));
        expect(counts.total).toBe(counts.altMed + counts.appeals + counts.phoneException + counts.priorAuth + counts.refillAuth);
        expect(counts.fetched).toBe(true);
      }),
    );
  });

  it('counts a prescription only when its patient is in the answer', () => {
    const doctors = [
      {
        doctorId: 'd1',
        patients: [
          {
            id: 'p1',
            prescriptions: [
              { ...none, id: 'r1', patientID: 'p1', needsRefillAuth: true },
              { ...none, id: 'r2', patientID: 'gone', needsRefillAuth: true },
            ],
          },
        ],
      },
    ];
    expect(countActionNeeded(flattenActionNeeded(doctors))).toMatchObject({ refillAuth: 1, total: 1 });
  });

  it('each category count equals the number of found prescriptions deriving it', () => {
    fc.assert(
      fc.property(nestedArb, (doctors) => {
        const found = new Set(doctors.flatMap((d) => d.patients.map((p) => p.id)));
        const all = doctors.flatMap((d) => d.patients.flatMap((p) => p.prescriptions)).filter((rx) => found.has(rx.patientID));
        const counts = countActionNeeded(flattenActionNeeded(doctors));
        expect(counts.refillAuth).toBe(all.filter((rx) => rx.needsRefillAuth).length);
        expect(counts.phoneException).toBe(all.filter((rx) => rx.phoneException).length);
        expect(counts.appeals).toBe(all.filter((rx) => rx.hcpActionRequired).length);
      }),
    );
  });
});

describe('card groups', () => {
  const doctors = [
    {
      doctorId: 'd1',
      patients: [
        {
          id: 'p1',
          prescriptions: [
            { ...none, id: 'r1', patientID: 'p1', needsRefillAuth: true, phoneException: true },
            { ...none, id: 'r2', patientID: 'p1', needsRefillAuth: true },
            { ...none, id: 'r3', patientID: 'p1' },
          ],
        },
        { id: 'p2', prescriptions: [{ ...none, id: 'r4', patientID: 'p2', priorAuthStatus: 'PRIOR_AUTH_REQUIRED' }] },
      ],
    },
    // The same patient also sees a second prescriber: their request gets its own card under that name.
    { doctorId: 'd2', patients: [{ id: 'p1', prescriptions: [{ ...none, id: 'r5', patientID: 'p1', needsRefillAuth: true }] }] },
  ];
  const entries = flattenActionNeeded(doctors);
  const groups = buildCardGroups(entries);

  it('makes one card per patient per category with that category’s prescriptions', () => {
    expect(groups.refillAuth.map((c) => [c.doctor.doctorId, c.patient.id, c.prescriptions.map((r) => r.id)])).toEqual([
      ['d1', 'p1', ['r1', 'r2']],
      ['d2', 'p1', ['r5']],
    ]);
    expect(groups.phoneExceptions.map((c) => c.prescriptions.map((r) => r.id))).toEqual([['r1']]);
    expect(groups.priorAuth.map((c) => c.patient.id)).toEqual(['p2']);
    expect(groups.altMeds).toEqual([]);
    expect(groups.appeals).toEqual([]);
  });

  it('all holds every prescription that needs something, once', () => {
    expect(groups.all.map((c) => [c.doctor.doctorId, c.patient.id, c.prescriptions.map((r) => r.id)])).toEqual([
      ['d1', 'p1', ['r1', 'r2']],
      ['d1', 'p2', ['r4']],
      ['d2', 'p1', ['r5']],
    ]);
  });

  it('maps phone exceptions by patient and lists PA-required ids', () => {
    expect([...phoneExceptionsByPatient(entries).keys()]).toEqual(['p1']);
    expect(priorAuthRequiredIds(entries)).toEqual(['r4']);
  });
});
