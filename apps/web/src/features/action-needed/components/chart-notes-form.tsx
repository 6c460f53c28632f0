import { type EarlierChartNote, formatDateTime, type UndoOffer, type UserDetails } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useEarlierChartNotes } from '../api/get-earlier-chart-notes.ts';
import { useSendChartNotes } from '../api/send-chart-notes.ts';
import { failure } from '../utils/decision-values.ts';
import styles from './action-needed.module.css';
import { DecisionButtons, decisionFormKeys } from './decision-form.tsx';
import { sendChoice, useSendConfirmation } from './send-confirmation.tsx';

const chartSchema = z.object({
  chartNote: z.string().trim().min(1, { message: 'Enter the chart notes.' }).max(5000),
  isICD10TriedAndFailed: z.boolean(),
});

/** The prior authorization the notes are for, as the confirmation names it. */
export interface ChartNotesTarget {
  prescriptionId: string;
  priorAuthStatus: string | null;
  drug: string;
  patient: string;
}

/**
 * The chart notes a prior authorization waits for: on its detail page and inline in the queue (issue 22), one
 * form. Ctrl+Enter (⌘+Enter) sends from the notes box; what goes is shown first unless the user chose to skip it.
 */
export function ChartNotesForm({
  target,
  user,
  onDone,
  onCancel,
  autoFocus = false,
}: {
  target: ChartNotesTarget;
  user: UserDetails;
  onDone: (message: string, undo?: UndoOffer) => void;
  /** Inline: Escape or Cancel closes the form without sending. */
  onCancel?: () => void;
  autoFocus?: boolean;
}) {
  const ids = { heading: useId(), note: useId(), icd: useId() };
  const chart = useSendChartNotes();
  const { confirmSend, dialog } = useSendConfirmation(user);
  const form = useForm<z.infer<typeof chartSchema>>({
    resolver: zodResolver(chartSchema),
    defaultValues: { chartNote: '', isICD10TriedAndFailed: false },
  });
  const submit = form.handleSubmit((v) =>
    confirmSend({
      title: 'Send these chart notes?',
      confirmLabel: 'Send chart notes',
      summary: (
        <>
          <p>
            To the pharmacy, by fax, for the prior authorization of {target.drug} for {target.patient}
            {v.isICD10TriedAndFailed ? ' (ICD-10 alternatives tried and failed)' : ''}:
          </p>
          <blockquote>{v.chartNote}</blockquote>
        </>
      ),
      send: (skip) =>
        chart.mutate(
          { prescriptionId: target.prescriptionId, ...v, ...sendChoice(skip) },
          { onSuccess: (result) => onDone('Chart notes sent.', result.undo) },
        ),
    }),
  );
  // Opened inline by the user's key: the notes box takes focus, as typing is the next thing to do.
  useEffect(() => {
    if (autoFocus) form.setFocus('chartNote');
  }, [autoFocus, form]);
  const onKeyDown = decisionFormKeys(submit, onCancel);
  const noteError = form.formState.errors.chartNote?.message;
  return (
    <>
      {dialog}
      <form noValidate className={styles.fieldset} aria-labelledby={ids.heading} onSubmit={submit} onKeyDown={onKeyDown}>
        <h3 id={ids.heading}>
          {target.priorAuthStatus === 'PRIOR_AUTH_ICD10_NEEDED' ? 'ICD-10 code and chart notes' : 'Chart notes'}
        </h3>
        <FormAlert message={failure(chart.error)} />
        <EarlierNotes
          prescriptionId={target.prescriptionId}
          onUse={(earlier) => {
            form.setValue('chartNote', earlier.chartNote, { shouldDirty: true, shouldValidate: true });
            form.setValue('isICD10TriedAndFailed', earlier.isICD10TriedAndFailed, { shouldDirty: true });
            form.setFocus('chartNote');
          }}
        />
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
        <DecisionButtons label="Send chart notes" busy={chart.isPending} onCancel={onCancel} />
      </form>
    </>
  );
}

/**
 * The notes sent for this patient's earlier prior authorizations (issue 23): one button puts them in the box to send
 * again or adjust, instead of typing them anew. Shown only when there are some; a failed lookup only hides the offer.
 */
function EarlierNotes({ prescriptionId, onUse }: { prescriptionId: string; onUse: (note: EarlierChartNote) => void }) {
  const earlier = useEarlierChartNotes(prescriptionId);
  const records = earlier.data?.records ?? [];
  if (records.length === 0) return null;
  return (
    <section aria-label="Chart notes sent before for this patient" className={styles.earlierNotes}>
      <p>Sent before for this patient:</p>
      <ul>
        {records.map((note) => (
          <li key={`${note.prescriptionId}-${note.sentAt}`}>
            <span>
              {formatDateTime(note.sentAt)}, {note.drug}: “
              {note.chartNote.length > 120 ? `${note.chartNote.slice(0, 120)}…` : note.chartNote}”
            </span>{' '}
            <button
              type="button"
              className={styles.secondary}
              aria-label={`Use the notes sent ${formatDateTime(note.sentAt)} for ${note.drug}`}
              onClick={() => onUse(note)}
            >
              Use these notes
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
