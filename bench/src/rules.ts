/**
 * The shared action-needed rules run in the browser on every refetch: flatten + count of a 10,000-
 * prescription answer vs a hand-written single loop computing the same counts.
 */
import { countActionNeeded, flattenActionNeeded, PRIOR_AUTH_STATUSES, SUBSTITUTION_PENDING_STATUSES } from '@hcp/contract';
import { interleavedRatio, timeLoop } from './measure.ts';

function nestedAnswer(prescriptions: number) {
  const doctors = [];
  let n = 0;
  for (let d = 0; n < prescriptions; d += 1) {
    const patients = [];
    for (let p = 0; p < 25 && n < prescriptions; p += 1) {
      const id = `p${d}-${p}`;
      const rxs = [];
      for (let r = 0; r < 4 && n < prescriptions; r += 1, n += 1) {
        rxs.push({
          id: `rx${n}`,
          patientID: id,
          needsRefillAuth: n % 3 === 0,
          phoneException: n % 17 === 0,
          substitutionStatus: n % 11 === 0 ? (SUBSTITUTION_PENDING_STATUSES[n % 4] ?? null) : null,
          priorAuthStatus: n % 7 === 0 ? (PRIOR_AUTH_STATUSES[n % 5] ?? null) : null,
          hcpActionRequired: n % 29 === 0,
        });
      }
      patients.push({ id, prescriptions: rxs });
    }
    doctors.push({ doctorId: `d${d}`, patients });
  }
  return doctors;
}

export async function rulesBench(): Promise<void> {
  const doctors = nestedAnswer(10_000);
  const paAction = new Set([
    'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY',
    'PRIOR_AUTH_CHART_NOTES_NEEDED',
    'PRIOR_AUTH_REQUIRED',
    'PRIOR_AUTH_ICD10_NEEDED',
  ]);
  const subPending = new Set<string>(SUBSTITUTION_PENDING_STATUSES);
  let sink = 0;
  const handWritten = () => {
    let total = 0;
    for (const d of doctors)
      for (const p of d.patients)
        for (const rx of p.prescriptions) {
          if (rx.needsRefillAuth) total += 1;
          if (rx.phoneException) total += 1;
          if (rx.hcpActionRequired) total += 1;
          if (rx.priorAuthStatus && paAction.has(rx.priorAuthStatus)) total += 1;
          if (rx.substitutionStatus && subPending.has(rx.substitutionStatus)) total += 1;
        }
    sink += total;
  };
  const contract = () => {
    sink += countActionNeeded(flattenActionNeeded(doctors)).total;
  };
  await interleavedRatio(
    'rules',
    'flatten+count 10k prescriptions, ms per run',
    'hand-written loop',
    5,
    async () => timeLoop(contract, 300),
    async () => timeLoop(handWritten, 300),
    (a, b) => `${a.toFixed(2)} vs ${b.toFixed(2)} ms per run (lower is better); ${sink > 0 ? 'ok' : ''}`,
  );
}
