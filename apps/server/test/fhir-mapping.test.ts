/**
 * The FHIR mapping both ways (issue 19): what the portal keeps, mapped to R4, is a valid resource (by the same
 * validator the API uses) and maps back to the same fields; and what a pharmacy sends maps to what it meant.
 */
import { DECISION_SYSTEM, EVENT_TYPES, NPI_SYSTEM, TASK_CODE_SYSTEM, TASK_INPUT_SYSTEM } from '@hcp/contract';
import type { Resource } from '@medplum/fhirtypes';
import { describe, expect, it } from 'vitest';
import { fromCommunication, toCommunication } from '../src/features/fhir/mapping/communication.ts';
import { fromMedicationRequest, toMedicationRequest } from '../src/features/fhir/mapping/medication-request.ts';
import { fromPatient, toPatient } from '../src/features/fhir/mapping/patient.ts';
import { fromTask, toTask } from '../src/features/fhir/mapping/task.ts';
import { validated } from '../src/features/fhir/validate.ts';

const updatedAt = new Date('2026-11-20T10:00:00.000Z');
const identifier = (value: string) => [{ system: 'urn:pharmacy:x', value }];
const ids = {
  practice: '7d8a2c1e-0000-4000-8000-000000000001',
  patient: '7d8a2c1e-0000-4000-8000-000000000002',
  rx: '7d8a2c1e-0000-4000-8000-000000000003',
  staff: '7d8a2c1e-0000-4000-8000-000000000004',
};
const valid = <R extends Resource>(resource: R) => validated<R>(JSON.parse(JSON.stringify(resource)), resource.resourceType);

describe('FHIR mapping both ways', () => {
  it('Patient', () => {
    const fields = {
      practiceId: ids.practice,
      firstName: 'Ana',
      lastName: 'Rivera',
      dob: '1961-04-12',
      phoneNumbers: ['6145550142', '6145550199'],
      address1: '12 Elm St',
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
    };
    const resource = valid(toPatient({ ...fields, id: ids.patient, updatedAt, identifiers: identifier('P1') }));
    expect(fromPatient(resource)).toEqual({ identifier: identifier('P1')[0], fields });
  });

  it('MedicationRequest', () => {
    const row = {
      id: ids.rx,
      patientId: ids.patient,
      prescriberId: ids.staff,
      drugName: 'Atorvastatin 20 mg tablet',
      prescribedNdc: '0093-5057-98',
      quantity: 30,
      daysSupply: 30,
      refills: 2,
      sig: 'Take 1 daily',
      prescribedAt: new Date('2026-10-01T09:30:00.000Z'),
      dispenseAsWritten: true,
      version: 4,
      updatedAt,
      identifiers: identifier('R1'),
    };
    const resource = valid(toMedicationRequest(row));
    expect(resource.meta?.versionId).toBe('4');
    expect(fromMedicationRequest(resource)).toEqual({
      identifier: identifier('R1')[0],
      fields: {
        patientId: ids.patient,
        prescriber: { id: ids.staff },
        drugName: row.drugName,
        ndc: row.prescribedNdc,
        quantity: 30,
        daysSupply: 30,
        refills: 2,
        sig: 'Take 1 daily',
        prescribedAt: row.prescribedAt,
        dispenseAsWritten: true,
      },
    });
    // A pharmacy names the prescriber by NPI; the portal answers with its own reference.
    const byNpi = fromMedicationRequest({ ...resource, requester: { identifier: { system: NPI_SYSTEM, value: '1234567893' } } });
    expect(byNpi.fields.prescriber).toEqual({ npi: '1234567893' });
  });

  it('Task: inputs of each kind, the portal status read back', () => {
    const row = {
      id: '7d8a2c1e-0000-4000-8000-000000000005',
      category: 'altMed' as const,
      status: 'requested',
      businessStatus: 'Waiting',
      input: { substitutionReason: 'high-cost', alternatives: ['Rosuvastatin 10 mg', 'Simvastatin 20 mg'] },
      note: 'Patient prefers generic',
      prescriptionId: ids.rx,
      patientId: ids.patient,
      prescriberId: ids.staff,
      itemOpen: true,
      postponedUntil: null,
      decision: null,
      appealExpiresAt: null,
      appealSubmitted: null,
      version: 2,
      createdAt: updatedAt,
      updatedAt,
      identifiers: identifier('T1'),
    };
    const resource = valid(toTask(row));
    expect(fromTask(resource)).toEqual({
      identifier: identifier('T1')[0],
      fields: {
        code: 'substitution',
        category: 'altMed',
        status: 'requested',
        prescriptionId: ids.rx,
        patientId: ids.patient,
        businessStatus: 'Waiting',
        inputs: row.input,
        note: 'Patient prefers generic',
      },
    });
    expect(toTask({ ...row, itemOpen: false }).status).toBe('completed');
    expect(toTask({ ...row, itemOpen: false, status: 'cancelled' }).status).toBe('cancelled');
    // Issue 46 part 3: the decision that answered it is read back as the webhook says it.
    const chosen = {
      event: 'alternative.chosen' as const,
      timelineType: EVENT_TYPES.alternativeMedSelected,
      data: { selectedAlternativeMed: 'Rosuvastatin 10 mg', noSubstitute: false },
      at: updatedAt,
    };
    const answered = valid(toTask({ ...row, itemOpen: false, decision: chosen }));
    expect(answered).toMatchObject({
      status: 'completed',
      businessStatus: { coding: [{ system: DECISION_SYSTEM, code: 'alternative.chosen' }] },
      executionPeriod: { end: updatedAt.toISOString() },
    });
    expect(answered.output?.map((o) => [o.type.coding?.[0]?.code, o.valueString ?? o.valueBoolean])).toEqual([
      ['alternative', 'Rosuvastatin 10 mg'],
      ['no-substitute', false],
    ]);
    // The pharmacy's own status once it completed the Task after the answer; the decision's outputs stay.
    const acknowledged = toTask({ ...row, itemOpen: false, status: 'completed', decision: chosen });
    expect(acknowledged.businessStatus).toEqual({ text: 'Waiting' });
    expect(acknowledged.output).toEqual(answered.output);
    // A decision of another kind than the state it is in (a postponement that ended) is not read as its answer.
    expect(toTask({ ...row, decision: { ...chosen, event: 'refill.postponed' } }).businessStatus).toEqual({ text: 'Waiting' });
    const postponed = valid(
      toTask({
        ...row,
        category: 'refillAuth',
        input: {},
        postponedUntil: '2027-01-15',
        decision: {
          event: 'refill.postponed',
          timelineType: EVENT_TYPES.refillPostponed,
          data: { postponedTo: '2027-01-15' },
          at: updatedAt,
        },
      }),
    );
    expect(postponed).toMatchObject({ status: 'on-hold', restriction: { period: { start: '2027-01-15' } } });
    expect(postponed.executionPeriod).toBeUndefined();
    const appeal = fromTask({
      resourceType: 'Task',
      status: 'requested',
      intent: 'order',
      identifier: identifier('T2'),
      code: { coding: [{ system: TASK_CODE_SYSTEM, code: 'appeal' }] },
      focus: { reference: `MedicationRequest/${ids.rx}` },
      input: [
        { type: { coding: [{ system: TASK_INPUT_SYSTEM, code: 'payer' }] }, valueString: 'Acme' },
        { type: { coding: [{ system: TASK_INPUT_SYSTEM, code: 'denial-reason' }] }, valueString: 'Not on formulary' },
        { type: { coding: [{ system: TASK_INPUT_SYSTEM, code: 'clinical-notes-required' }] }, valueBoolean: true },
        { type: { coding: [{ system: 'urn:their-own', code: 'x' }] }, valueString: 'kept by the pharmacy' },
      ],
    });
    expect(appeal.fields.inputs).toEqual({ payer: 'Acme', denialReason: 'Not on formulary', clinicalNotesRequired: 'true' });
  });

  it('Communication', () => {
    const row = {
      id: '7d8a2c1e-0000-4000-8000-000000000006',
      patientId: ids.patient,
      practiceId: ids.practice,
      prescriptionId: ids.rx,
      body: 'Can my refill be sent before Friday?',
      createdAt: updatedAt,
      identifiers: identifier('M1'),
    };
    const resource = valid(toCommunication(row));
    expect(fromCommunication(resource)).toEqual({
      identifier: identifier('M1')[0],
      fields: { patientId: ids.patient, prescriptionId: ids.rx, practiceId: ids.practice, body: row.body, sentAt: updatedAt },
    });
  });
});
