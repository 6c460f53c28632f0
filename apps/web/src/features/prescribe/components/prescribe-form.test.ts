import { newPrescriptionSchema } from '@hcp/contract';
import { describe, expect, it } from 'vitest';
import { EMPTY_VALUES, formPathOf, toRequest } from './prescribe-form.tsx';

describe('prescribe form helpers', () => {
  it('sends only the chosen kind of patient', () => {
    const existing = toRequest({ ...EMPTY_VALUES, patientId: 'p1', productId: 'x' }) as { patient: object };
    expect(existing.patient).toEqual({ patientId: 'p1' });
    const fresh = toRequest({ ...EMPTY_VALUES, mode: 'new' }) as { patient: { newPatient: object } };
    expect(Object.keys(fresh.patient)).toEqual(['newPatient']);
  });

  it('puts every contract error on a field of the form', () => {
    const result = newPrescriptionSchema.safeParse(toRequest({ ...EMPTY_VALUES, mode: 'new' }));
    expect(result.success).toBe(false);
    const fields = new Set(result.error?.issues.map((i) => formPathOf(i.path as (string | number)[])));
    for (const field of ['newPatient.fullName', 'newPatient.dob', 'newPatient.zip', 'productId', 'order.quantity', 'order.sig']) {
      expect(fields).toContain(field);
    }
    const noPatient = newPrescriptionSchema.safeParse(toRequest(EMPTY_VALUES));
    expect(noPatient.error?.issues.map((i) => formPathOf(i.path as (string | number)[]))).toContain('patientId');
  });
});
