/**
 * Spec §9 special drug names and the §3 single-branded-drug flag. The portal names these drugs as the
 * pharmacy markets them: Impel (Trudhesa), Xifaxan by NDC, OysterPoint (Tyrvaya).
 */
export const XIFAXAN_NDCS = ['65649-0303-03', '65649-0301-41'] as const;

interface DrugFields {
  drugName: string;
  prescribedNdc: string | null;
  dispensedNdc: string | null;
}

const isXifaxan = (rx: DrugFields) => XIFAXAN_NDCS.some((ndc) => ndc === rx.prescribedNdc || ndc === rx.dispensedNdc);

/** The drug name shown on a card: the special products carry their brand names consistently. */
export function displayDrugName(rx: DrugFields): string {
  if (isXifaxan(rx)) return 'Xifaxan';
  if (/impel/i.test(rx.drugName)) return `${rx.drugName.replace(/\s*\(impel\)/i, '').trim()} (Impel)`;
  if (/oysterpoint/i.test(rx.drugName)) return `${rx.drugName.replace(/\s*\(oysterpoint\)/i, '').trim()} (OysterPoint)`;
  return rx.drugName;
}

/** The drug as every sentence and row names it: its display name (above) and strength. */
export function drugLabel(rx: DrugFields & { strength: string | null }): string {
  return `${displayDrugName(rx)}${rx.strength ? ` ${rx.strength}` : ''}`;
}

/** §3 flag: every prescription of the list is for the one branded drug identified by NDC (Xifaxan). */
export function allForBrandedDrug(prescriptions: readonly DrugFields[]): boolean {
  return prescriptions.length > 0 && prescriptions.every(isXifaxan);
}
