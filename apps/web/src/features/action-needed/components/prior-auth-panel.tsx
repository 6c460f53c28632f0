import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useConfirmMdSignature } from '../api/confirm-md-signature.ts';
import { useDismissPriorAuth } from '../api/dismiss-prior-auth.ts';
import { useSendChartNotes } from '../api/send-chart-notes.ts';
import { PRIOR_AUTH_METHOD_TEXT, PRIOR_AUTH_STATUS_TEXT } from '../utils/labels.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { patientName } from './patient-card.tsx';
import { failure, type PanelProps } from './refill-panel.tsx';
import { sendChoice, useSendConfirmation } from './send-confirmation.tsx';

const chartSchema = z.object({
  chartNote: z.string().trim().min(1, { message: 'Enter the chart notes.' }).max(5000),
  isICD10TriedAndFailed: z.boolean(),
});

export function PriorAuthPanel({ entry, user, onDone }: PanelProps) {
  const rx = entry.prescription;
  const ids = { note: useId(), icd: useId() };
  const signature = useConfirmMdSignature();
  const chart = useSendChartNotes();
  const dismiss = useDismissPriorAuth();
  const [noticeOpen, setNoticeOpen] = useState(false);
  const { confirmSend, dialog: sendDialog } = useSendConfirmation(user);
  const form = useForm<z.infer<typeof chartSchema>>({
    resolver: zodResolver(chartSchema),
    defaultValues: { chartNote: '', isICD10TriedAndFailed: false },
  });
  const status = rx.priorAuthStatus ?? '';
  const needsNotes = status === 'PRIOR_AUTH_CHART_NOTES_NEEDED' || status === 'PRIOR_AUTH_ICD10_NEEDED';
  const busy = signature.isPending || chart.isPending || dismiss.isPending;
  const doDismiss = (skip?: boolean) =>
    dismiss.mutate(
      { prescriptionIds: [rx.id], ...(skip === undefined ? {} : { skipPriorAuthDismissNotice: skip }) },
      { onSuccess: (result) => onDone('Prior authorization dismissed.', result.undo) },
    );
  const noteError = form.formState.errors.chartNote?.message;

  return (
    <section className={styles.panel} aria-labelledby="pa-heading">
      {sendDialog}
      <h2 id="pa-heading">Prior authorization</h2>
      <p>
        {PRIOR_AUTH_STATUS_TEXT[status] ?? status}
        {rx.priorAuthMethod ? ` (${PRIOR_AUTH_METHOD_TEXT[rx.priorAuthMethod] ?? rx.priorAuthMethod})` : ''}.
      </p>
      <FormAlert message={failure(signature.error ?? chart.error ?? dismiss.error)} />

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

      {needsNotes ? (
        <form
          noValidate
          className={styles.fieldset}
          aria-labelledby="chart-heading"
          onSubmit={form.handleSubmit((v) =>
            confirmSend({
              title: 'Send these chart notes?',
              confirmLabel: 'Send chart notes',
              summary: (
                <>
                  <p>
                    To the pharmacy, by fax, for the prior authorization of {drugLabel(rx)} for {patientName(entry.patient)}
                    {v.isICD10TriedAndFailed ? ' (ICD-10 alternatives tried and failed)' : ''}:
                  </p>
                  <blockquote>{v.chartNote}</blockquote>
                </>
              ),
              send: (skip) =>
                chart.mutate(
                  { prescriptionId: rx.id, ...v, ...sendChoice(skip) },
                  { onSuccess: (result) => onDone('Chart notes sent.', result.undo) },
                ),
            }),
          )}
        >
          <h3 id="chart-heading">{status === 'PRIOR_AUTH_ICD10_NEEDED' ? 'ICD-10 code and chart notes' : 'Chart notes'}</h3>
          <label className={styles.label} htmlFor={ids.note}>
            Chart notes (diagnosis, ICD-10 codes, treatments tried)
            <textarea
              id={ids.note}
              rows={5}
              aria-invalid={noteError ? true : undefined}
              aria-describedby={noteError ? `${ids.note}-error` : undefined}
              {...form.register('chartNote')}
            />
            {noteError ? (
              <span id={`${ids.note}-error`} className={styles.fieldError}>
                {noteError}
              </span>
            ) : null}
          </label>
          <div className={styles.choice}>
            <input id={ids.icd} type="checkbox" {...form.register('isICD10TriedAndFailed')} />
            <label htmlFor={ids.icd}>Formulary alternatives for this diagnosis were tried and failed</label>
          </div>
          <div className={styles.row}>
            <button type="submit" className={styles.button} disabled={busy}>
              Send chart notes
            </button>
          </div>
        </form>
      ) : null}

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
