import { needsChartNotes } from '@hcp/contract';
import { useState } from 'react';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useConfirmMdSignature } from '../api/confirm-md-signature.ts';
import { useDismissPriorAuth } from '../api/dismiss-prior-auth.ts';
import { failure } from '../utils/decision-values.ts';
import { PRIOR_AUTH_METHOD_TEXT, PRIOR_AUTH_STATUS_TEXT } from '../utils/labels.ts';
import styles from './action-needed.module.css';
import { ChartNotesForm } from './chart-notes-form.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { decisionTarget } from './decision-form.tsx';
import type { PanelProps } from './refill-panel.tsx';

export function PriorAuthPanel({ entry, user, onDone }: PanelProps) {
  const rx = entry.prescription;
  const signature = useConfirmMdSignature();
  const dismiss = useDismissPriorAuth();
  const [noticeOpen, setNoticeOpen] = useState(false);
  const status = rx.priorAuthStatus ?? '';
  const busy = signature.isPending || dismiss.isPending;
  const doDismiss = (skip?: boolean) =>
    dismiss.mutate(
      { prescriptionIds: [rx.id], ...(skip === undefined ? {} : { skipPriorAuthDismissNotice: skip }) },
      { onSuccess: (result) => onDone('Prior authorization dismissed.', result.undo) },
    );

  return (
    <section className={styles.panel} aria-labelledby="pa-heading">
      <h2 id="pa-heading">Prior authorization</h2>
      <p>
        {PRIOR_AUTH_STATUS_TEXT[status] ?? status}
        {rx.priorAuthMethod ? ` (${PRIOR_AUTH_METHOD_TEXT[rx.priorAuthMethod] ?? rx.priorAuthMethod})` : ''}.
      </p>
      <FormAlert message={failure(signature.error ?? dismiss.error)} />

      {status === 'PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY' ? (
        <div className={styles.row}>
          <button
            type="button"
            className={styles.button}
            disabled={busy}
            onClick={() =>
              signature.mutate(
                { prescriptionIds: [rx.id] },
                { onSuccess: (result) => onDone('Marked as signed: the pharmacy has the signature.', result.undo) },
              )
            }
          >
            Signature sent to the pharmacy
          </button>
        </div>
      ) : null}

      {needsChartNotes(status) ? <ChartNotesForm target={decisionTarget(rx, entry.patient)} user={user} onDone={onDone} /> : null}

      <div className={styles.row}>
        <button
          type="button"
          className={styles.secondary}
          disabled={busy}
          onClick={() => (user.mdOfficeUserPrefs.skipPriorAuthDismissNotice ? doDismiss() : setNoticeOpen(true))}
        >
          Dismiss prior authorization
        </button>
      </div>
      <ConfirmDialog
        open={noticeOpen}
        title="Dismiss this prior authorization?"
        confirmLabel="Dismiss"
        skipLabel="Don’t show this again"
        onCancel={() => setNoticeOpen(false)}
        onConfirm={(skip) => {
          setNoticeOpen(false);
          doDismiss(skip);
        }}
      >
        <p>The pharmacy will stop waiting for this prior authorization and may not be able to fill the prescription.</p>
      </ConfirmDialog>
    </section>
  );
}
