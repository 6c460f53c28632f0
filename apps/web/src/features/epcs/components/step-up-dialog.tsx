import { EPCS_MESSAGES, type EpcsFactor } from '@hcp/contract';
import { type ReactNode, useState } from 'react';
import controls from '../../../components/controls.module.css';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { emptyStepUp, StepUpFields } from '../../../components/step-up-fields.tsx';
import { type StepUpEntry, stepUpEntryProblem, stepUpFailure } from '../../../lib/step-up.ts';

/**
 * A change of EPCS permission confirmed with two factors now (21 CFR 1311.125(c)): what changes, an optional
 * attestation the person must tick, the password and a passkey or app code.
 */
export function StepUpDialog({
  title,
  factors,
  confirmLabel,
  attestation,
  children,
  onConfirm,
  onClose,
}: {
  title: string;
  factors: readonly EpcsFactor[];
  confirmLabel: string;
  /** A statement to tick before confirming (the approver checked the registration). */
  attestation?: string;
  children: ReactNode;
  onConfirm: (entry: StepUpEntry) => Promise<void>;
  onClose: () => void;
}) {
  const [entry, setEntry] = useState(() => emptyStepUp(factors));
  const [attested, setAttested] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const confirm = async () => {
    if (busy) return;
    if (attestation && !attested) return setProblem(EPCS_MESSAGES.verifyRequired);
    const missing = stepUpEntryProblem(entry);
    if (missing) return setProblem(missing);
    setBusy(true);
    setProblem(null);
    try {
      await onConfirm(entry);
    } catch (error) {
      setProblem(stepUpFailure(error));
      setBusy(false);
    }
  };
  return (
    <Dialog
      open
      title={title}
      onClose={onClose}
      onSubmit={() => void confirm()}
      actions={
        <>
          <button type="submit" className={controls.primary} disabled={busy}>
            {busy ? 'Confirming…' : confirmLabel}
          </button>
          <button type="button" className={controls.secondary} onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      {children}
      {attestation ? (
        <label>
          <input type="checkbox" checked={attested} onChange={(event) => setAttested(event.target.checked)} /> {attestation}
        </label>
      ) : null}
      <StepUpFields factors={factors} value={entry} onChange={setEntry} />
      <FormAlert message={problem} />
    </Dialog>
  );
}
