import { describe, expect, it } from 'vitest';
import { allForBrandedDrug, displayDrugName } from './special-drugs.ts';

const rx = (drugName: string, prescribedNdc: string | null = null, dispensedNdc: string | null = null) => ({
  drugName,
  prescribedNdc,
  dispensedNdc,
});

describe('special drug names (spec §9)', () => {
  it('names Xifaxan by NDC whatever the stored name', () => {
    expect(displayDrugName(rx('Rifaximin 550', '65649-0303-03'))).toBe('Xifaxan');
    expect(displayDrugName(rx('Rifaximin', null, '65649-0301-41'))).toBe('Xifaxan');
  });
  it('keeps the Impel and OysterPoint brand in the name', () => {
    expect(displayDrugName(rx('Trudhesa (Impel)'))).toBe('Trudhesa (Impel)');
    expect(displayDrugName(rx('Tyrvaya (oysterpoint)'))).toBe('Tyrvaya (OysterPoint)');
    expect(displayDrugName(rx('Atorvastatin', '00378-0018-01'))).toBe('Atorvastatin');
  });
  it('flags a list made only of the one branded drug (spec §3)', () => {
    expect(allForBrandedDrug([rx('Xifaxan', '65649-0303-03'), rx('Xifaxan', '65649-0301-41')])).toBe(true);
    expect(allForBrandedDrug([rx('Xifaxan', '65649-0303-03'), rx('Atorvastatin', '00378-0018-01')])).toBe(false);
    expect(allForBrandedDrug([])).toBe(false);
  });
});
