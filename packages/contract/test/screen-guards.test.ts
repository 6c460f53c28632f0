/**
 * The answers the signed-in landing screen draws from are checked without zod (decision 0064): each guard must
 * accept exactly what its schema accepts, for valid answers and for near misses at any depth.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  actionNeededResponseSchema,
  DEA_SCHEDULES,
  doctorListSearchResponseSchema,
  FINAL_DENIAL_REASONS,
  isActionNeededResponse,
  isDoctorListSearchResponse,
  isPatientSearchResponse,
  isRxListResponse,
  isSupportAccessState,
  PRIOR_AUTH_METHODS,
  patientSearchResponseSchema,
  rxListResponseSchema,
  supportAccessStateSchema,
} from '../src/index.ts';
import { expectSameAsSchema, expectSameAtEveryPlace, nearMissesAnywhere } from './guard-testing.ts';

const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
/** One or two: near misses need places to land in (an empty list has none); the empty answer is generated apart. */
const some = <T>(arbitrary: fc.Arbitrary<T>) => fc.array(arbitrary, { minLength: 1, maxLength: 2 });
const int = fc.oneof(fc.integer(), fc.integer({ min: 0, max: 12 }));
const note = nullable(fc.string());

const prepared = fc.record({
  decision: fc.oneof(
    fc.record({ action: fc.constant('refillAuthorizedFax'), refills: int, sig: fc.string(), note }),
    fc.record({ action: fc.constant('refillAuthorizedErx'), note }),
    fc.record({ action: fc.constant('refillDenied'), reason: fc.constantFrom(...FINAL_DENIAL_REASONS), note }),
    fc.record({
      action: fc.constant('alternativeMed'),
      noSubstitute: fc.boolean(),
      selectedAlternativeMed: nullable(fc.string()),
      note,
    }),
  ),
  preparedByName: fc.string(),
  preparedAt: fc.string(),
});

const optionalKeys = ['practiceId', 'lastFilledOn', 'refillsRemaining', 'prepared', 'faxByRule', 'controlled'];
const prescriptionFields = {
  id: fc.uuid(),
  practiceId: fc.uuid(),
  patientID: fc.uuid(),
  needsRefillAuth: fc.boolean(),
  phoneException: fc.boolean(),
  substitutionStatus: nullable(fc.string()),
  priorAuthStatus: nullable(fc.string()),
  priorAuthMethod: nullable(fc.constantFrom(...PRIOR_AUTH_METHODS)),
  hcpActionRequired: fc.boolean(),
  dispensedNdc: nullable(fc.string()),
  prescribedNdc: nullable(fc.string()),
  drugName: fc.string(),
  strength: nullable(fc.string()),
  quantity: nullable(int),
  daysSupply: nullable(int),
  refills: int,
  sig: nullable(fc.string()),
  prescribedDate: fc.string(),
  lastProcessedDate: nullable(fc.string()),
  orderNumber: nullable(fc.string()),
  orderStatus: nullable(fc.string()),
  price: nullable(fc.double({ noNaN: true, noDefaultInfinity: true })),
  alternativeMeds: fc.array(fc.string(), { maxLength: 2 }),
  lastFilledOn: nullable(fc.string()),
  refillsRemaining: nullable(int),
  prepared: nullable(prepared),
  faxByRule: nullable(fc.string()),
  controlled: nullable(fc.record({ schedule: nullable(fc.constantFrom(...DEA_SCHEDULES)) })),
};
const prescription = fc.record(prescriptionFields, {
  requiredKeys: Object.keys(prescriptionFields).filter(
    (key) => !optionalKeys.includes(key),
  ) as (keyof typeof prescriptionFields)[],
});
const person = { id: fc.uuid(), firstName: fc.string(), lastName: fc.string(), dob: fc.string() };
const doctorOf = <T>(patient: fc.Arbitrary<T>) =>
  fc.record({ doctorId: fc.uuid(), name: fc.string(), role: fc.string(), patients: some(patient) });

describe('Action Needed’s zod-free guard', () => {
  const patient = fc.record({
    ...person,
    phoneNumbers: fc.array(fc.string(), { maxLength: 2 }),
    prescriptions: some(prescription),
  });
  const valid = fc.oneof(fc.constant({ doctors: [] }), fc.record({ doctors: some(doctorOf(patient)) }));

  it('accepts exactly the answers the schema accepts', () => {
    expectSameAsSchema(
      fc.oneof(valid, nearMissesAnywhere(valid), nearMissesAnywhere(valid), fc.anything()),
      isActionNeededResponse,
      actionNeededResponseSchema,
      10_000,
    );
  });

  it('agrees with the schema on every field of a full answer holding each edge value', () => {
    // Every optional field present and set, so each rule is reached: a prepared decision of each kind.
    const full = fc.record({
      doctors: some(
        doctorOf(
          fc.record({
            ...person,
            phoneNumbers: some(fc.string()),
            prescriptions: some(
              fc.record({
                ...prescriptionFields,
                prepared,
                controlled: fc.record({ schedule: fc.constantFrom(...DEA_SCHEDULES) }),
              }),
            ),
          }),
        ),
      ),
    });
    const samples = fc.sample(full, { numRuns: 12, seed: 50 });
    const actions = new Set(
      samples.flatMap((answer) =>
        answer.doctors.flatMap((doctor) =>
          doctor.patients.flatMap((patient) => patient.prescriptions.map((rx) => rx.prepared.decision.action)),
        ),
      ),
    );
    expect(actions.size).toBe(4);
    expect(expectSameAtEveryPlace(samples, isActionNeededResponse, actionNeededResponseSchema)).toBeGreaterThan(10_000);
  });

  it('refuses a wrong field deep in the answer and lets an unknown one through, as the schema does', () => {
    const answer = fc.sample(
      valid.filter((value) => value.doctors[0]?.patients[0]?.prescriptions[0] !== undefined),
      {
        numRuns: 1,
        seed: 7,
      },
    )[0] as { doctors: { patients: { prescriptions: Record<string, unknown>[] }[] }[] };
    const withPrice = (price: unknown) => {
      const copy = JSON.parse(JSON.stringify(answer)) as typeof answer;
      (copy.doctors[0]?.patients[0]?.prescriptions[0] as Record<string, unknown>).price = price;
      return copy;
    };
    expect(isActionNeededResponse(withPrice(12.5))).toBe(true);
    expect(isActionNeededResponse(withPrice('12.50'))).toBe(false);
    expect(isActionNeededResponse({ ...answer, extra: true })).toBe(true);
  });
});

describe('the New Comments count’s zod-free guard', () => {
  const patient = fc.record({
    ...person,
    unreadCount: fc.oneof(fc.integer({ min: 1, max: 50 }), fc.integer()),
    latestAt: fc.string(),
  });
  const valid = fc.record({
    doctors: fc.oneof(fc.constant([]), some(doctorOf(patient))),
    total: fc.oneof(fc.nat(), fc.integer()),
  });

  it('accepts exactly the answers the schema accepts', () => {
    expectSameAsSchema(
      fc.oneof(valid, nearMissesAnywhere(valid), fc.anything()),
      isDoctorListSearchResponse,
      doctorListSearchResponseSchema,
    );
    const samples = fc.sample(
      valid.filter((answer) => answer.doctors.length > 0),
      { numRuns: 6, seed: 50 },
    );
    expectSameAtEveryPlace(samples, isDoctorListSearchResponse, doctorListSearchResponseSchema);
  });
});

describe('the support-access state’s zod-free guard', () => {
  const grant = fc.record({
    id: fc.uuid(),
    mdOfficeId: fc.uuid(),
    practiceName: fc.string(),
    userName: fc.string(),
    reason: fc.string(),
    startedAt: fc.string(),
    expiresAt: fc.string(),
    endedAt: nullable(fc.string()),
    active: fc.boolean(),
  });
  const valid = fc.record({ active: nullable(grant) });

  it('accepts exactly the answers the schema accepts', () => {
    expectSameAsSchema(fc.oneof(valid, nearMissesAnywhere(valid), fc.anything()), isSupportAccessState, supportAccessStateSchema);
    expectSameAtEveryPlace(
      fc.sample(fc.record({ active: grant }), { numRuns: 3, seed: 50 }),
      isSupportAccessState,
      supportAccessStateSchema,
    );
  });
});

describe('the Rx list’s zod-free guard', () => {
  const row = fc.record({
    id: fc.uuid(),
    practiceName: fc.string(),
    patientName: fc.string(),
    patientDob: fc.string(),
    prescriptionName: fc.string(),
    isWholeSale: fc.boolean(),
    orderNumber: nullable(fc.string()),
    prescribedDate: fc.string(),
    orderStatus: nullable(fc.string()),
    pending: fc.boolean(),
    lastProcessedDate: nullable(fc.string()),
    prescriberName: fc.string(),
    prescriberPhoneNumber: nullable(fc.string()),
    prescriberCreatedDate: nullable(fc.string()),
    prescriberSpecialty: nullable(fc.string()),
    price: nullable(fc.double({ noNaN: true, noDefaultInfinity: true })),
  });
  const valid = fc.oneof(fc.constant([]), some(row));

  it('accepts exactly the answers the schema accepts', () => {
    expectSameAsSchema(fc.oneof(valid, nearMissesAnywhere(valid), fc.anything()), isRxListResponse, rxListResponseSchema);
    expectSameAtEveryPlace(fc.sample(some(row), { numRuns: 4, seed: 50 }), isRxListResponse, rxListResponseSchema);
  });
});

describe('the patient search’s zod-free guard', () => {
  const record = fc.record({
    ...person,
    phoneNumbers: fc.array(fc.string(), { maxLength: 2 }),
    practiceName: fc.string(),
    actionNeededCount: fc.oneof(fc.nat({ max: 9 }), fc.integer()),
  });
  const valid = fc.record({ records: fc.oneof(fc.constant([]), some(record)), total: fc.oneof(fc.nat(), fc.integer()) });

  it('accepts exactly the answers the schema accepts', () => {
    expectSameAsSchema(
      fc.oneof(valid, nearMissesAnywhere(valid), fc.anything()),
      isPatientSearchResponse,
      patientSearchResponseSchema,
    );
    const samples = fc.sample(fc.record({ records: some(record), total: fc.nat() }), { numRuns: 4, seed: 50 });
    expectSameAtEveryPlace(samples, isPatientSearchResponse, patientSearchResponseSchema);
  });
});
