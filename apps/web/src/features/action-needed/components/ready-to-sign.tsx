/**
 * "Ready to sign (N)" on the cards view (issue 23): every decision staff prepared, with what signing sends, who
 * prepared it and their note; a prescriber signs them all as prepared after one confirmation (the bulk path: each
 * is decided on its own, a changed one is left out with the reason), or opens one to decide otherwise.
 */
import {
  type ActionNeededDoctor,
  type ActionNeededPatient,
  type ActionNeededPrescription,
  describePrepared,
  flattenActionNeeded,
  maySignItem,
  type UserDetails,
  webPaths,
} from '@hcp/contract';
import { useState } from 'react';
import { Link } from 'react-router';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { FOCUS_KEY, focusWhenReady } from '../../../lib/focus.ts';
import { failureText } from '../../../lib/form-errors.ts';
import { useSignPrepared } from '../api/sign-prepared.ts';
import { preparedText } from '../utils/prepared-text.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import { useDecisionToast } from '../utils/use-decision-toast.ts';
import styles from './action-needed.module.css';
import { patientName } from './patient-card.tsx';

/** The entries of the answer (the contract's one flattening) that carry a preparation. */
export function readyToSign(doctors: readonly ActionNeededDoctor[]) {
  return flattenActionNeeded<ActionNeededPrescription, ActionNeededPatient, ActionNeededDoctor>(doctors).flatMap(
    ({ doctor, patient, prescription: rx }) => (rx.prepared ? [{ doctor, patient, rx, prepared: rx.prepared }] : []),
  );
}

export function ReadyToSign({
  doctors,
  canSign,
  user,
}: {
  doctors: readonly ActionNeededDoctor[];
  canSign: boolean;
  user: UserDetails | undefined;
}) {
  const all = readyToSign(doctors);
  // A prescriber signs what the practice lets them (decision 0041); the rest waits for whoever signs it.
  const items = canSign
    ? all.filter((i) => maySignItem(user, { practiceId: i.rx.practiceId, prescriberId: i.doctor.doctorId }))
    : all;
  const waiting = all.length - items.length;
  const sign = useSignPrepared();
  const { announce } = useDecisionToast();
  const [open, setOpen] = useState(false);
  const [showing, setShowing] = useState(false);
  if (all.length === 0) return null;
  const run = () => {
    setOpen(false);
    sign.mutate(
      { items: items.map((i) => ({ id: i.rx.id })), senderName: user?.userName ?? '' },
      {
        onSuccess: (result) => {
          const refused = result.results.filter((r) => r.status === 'refused');
          announce(
            refused.length === 0
              ? `Signed ${result.done} as prepared.`
              : `Signed ${result.done} of ${items.length}; ${refused.length} left out: ${refused.map((r) => r.reason).join(' ')}`,
            result.undo,
          );
          // This box leaves with what it listed: focus goes on to the first item still waiting, else the heading.
          focusWhenReady(() => document.querySelector<HTMLElement>(`#main a[${FOCUS_KEY}]`));
        },
      },
    );
  };
  return (
    <section className={styles.prepared} aria-labelledby="ready-to-sign-heading">
      <h2 id="ready-to-sign-heading">Ready to sign ({items.length})</h2>
      <div className={styles.row}>
        <button type="button" className={styles.secondary} aria-expanded={showing} onClick={() => setShowing(!showing)}>
          {showing ? 'Hide what was prepared' : 'Show what was prepared'}
        </button>
        {canSign && items.length > 0 ? (
          <button type="button" className={styles.button} disabled={sign.isPending} onClick={() => setOpen(true)}>
            Sign all {items.length} as prepared
          </button>
        ) : null}
        {!canSign || waiting > 0 ? (
          <span>
            {canSign
              ? `${waiting} more wait for the prescriber who signs them, or a colleague covering for them.`
              : 'Waiting for a prescriber’s signature.'}
          </span>
        ) : null}
      </div>
      <FormAlert message={sign.error ? failureText(sign.error) : null} />
      {showing ? (
        <ul aria-label="Prepared for signature">
          {all.map(({ patient, rx, prepared }) => (
            <li key={rx.id}>
              <Link
                to={webPaths.actionNeededDetail(rx.id, prepared.decision.action === 'alternativeMed' ? 'altMed' : 'refillAuth')}
              >
                {patientName(patient)} · {drugLabel(rx)}
              </Link>
              : {preparedText(prepared)}
              {prepared.decision.note ? ` Note: ${prepared.decision.note}` : ''}
            </li>
          ))}
        </ul>
      ) : null}
      <Dialog
        open={open}
        title={`Sign ${items.length} as prepared?`}
        onClose={() => setOpen(false)}
        actions={
          <>
            <button type="button" className={styles.secondary} onClick={() => setOpen(false)}>
              Cancel
            </button>
            <button type="button" className={styles.button} data-autofocus onClick={run}>
              Sign and send {items.length}
            </button>
          </>
        }
      >
        <p>Each goes to the pharmacy as prepared, signed {user?.userName}:</p>
        <ul>
          {items.map(({ patient, rx, prepared }) => (
            <li key={rx.id}>
              {patientName(patient)} · {drugLabel(rx)}: {describePrepared(prepared.decision)}
            </li>
          ))}
        </ul>
      </Dialog>
    </section>
  );
}
