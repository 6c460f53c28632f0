import { type EpcsSigning, formatApiDate } from '@hcp/contract';
import { Fragment, useState } from 'react';
import { type StepUpEntry, stepUpEntryProblem } from '../lib/step-up.ts';
import controls from './controls.module.css';
import { Dialog } from './dialog.tsx';
import factStyles from './facts.module.css';
import { FormAlert } from './form-alert.tsx';
import { emptyStepUp, StepUpFields } from './step-up-fields.tsx';

/** What 21 CFR 1311.140(a)(1) asks the signing screen to show, as the server will sign it. */
function SignedContent({ signing }: { signing: EpcsSigning }) {
  const c = signing.content;
  const facts: [string, string][] = [
    ['Date issued', formatApiDate(c.issuedOn)],
    ['Patient', `${c.patient.name}, born ${formatApiDate(c.patient.dob)}`],
    ['Patient address', c.patient.address || '—'],
    ['Drug', [c.drug.name, c.drug.strength, c.drug.form].filter(Boolean).join(' ')],
    ['Schedule', `C-${c.drug.schedule}`],
    ['Quantity', c.quantity === null ? '—' : String(c.quantity)],
    ['Directions', c.sig],
    ['Refills', String(c.refills)],
    ...(c.dispenseAsWritten === undefined
      ? []
      : ([['Substitution', c.dispenseAsWritten ? 'Dispense as written' : 'Generic substitution allowed']] as [string, string][])),
    ...(c.notesToPharmacist ? ([['Notes to pharmacist', c.notesToPharmacist]] as [string, string][]) : []),
    ['Prescriber', c.prescriber.name],
    ['Prescriber address', c.prescriber.address],
    ['DEA number', c.prescriber.dea],
  ];
  return (
    <dl className={factStyles.facts}>
      {facts.map(([term, value]) => (
        <Fragment key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </Fragment>
      ))}
    </dl>
  );
}

/**
 * Signing a controlled substance (issue 48, EPCS): exactly what is signed, the rule's statement (the confirm button
 * is described by it), the password and the second factor. `onSign` rejects with the sentence to show.
 */
export function EpcsSigningDialog({
  signing,
  busy,
  problem,
  onSign,
  onClose,
}: {
  signing: EpcsSigning | null;
  busy: boolean;
  /** Why the last attempt failed, from the caller. */
  problem: string | null;
  onSign: (entry: StepUpEntry) => void;
  onClose: () => void;
}) {
  const [entry, setEntry] = useState<StepUpEntry>(() => emptyStepUp(signing?.factors ?? []));
  const [missing, setMissing] = useState<string | null>(null);
  const legalId = `epcs-legal-${signing?.signingId ?? 'none'}`;
  const confirm = () => {
    if (busy) return;
    const lacking = stepUpEntryProblem(entry);
    setMissing(lacking);
    if (!lacking) onSign(entry);
  };
  return (
    <Dialog
      open={signing !== null}
      title="Sign controlled substance prescription"
      onClose={onClose}
      onSubmit={confirm}
      actions={
        <>
          <button type="submit" className={controls.primary} disabled={busy} aria-describedby={legalId}>
            {busy ? 'Signing…' : 'Sign and send'}
          </button>
          <button type="button" className={controls.secondary} onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      {signing ? (
        <>
          <SignedContent signing={signing} />
          <p id={legalId}>{signing.legalText}</p>
          <StepUpFields factors={signing.factors} value={entry} onChange={setEntry} />
          <FormAlert message={missing ?? problem} />
        </>
      ) : null}
    </Dialog>
  );
}
