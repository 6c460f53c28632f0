import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import { openHtmlWindow } from '../../../lib/print-window.ts';
import { getAlternativeMedsPrint } from '../api/get-alternative-meds-print.ts';
import { useSendAlternativeMed } from '../api/send-alternative-med.ts';
import { SUBSTITUTION_REASON_TEXT } from '../utils/labels.ts';
import { drugLabel } from '../utils/special-drugs.ts';
import styles from './action-needed.module.css';
import { patientName } from './patient-card.tsx';
import { failure, type PanelProps } from './refill-panel.tsx';
import { sendChoice, useSendConfirmation } from './send-confirmation.tsx';

const NO_SUBSTITUTE = '__no_substitute__';
const schema = z.object({
  choice: z
    .string({ message: 'Choose an alternative, or no substitution.' })
    .min(1, { message: 'Choose an alternative, or no substitution.' }),
  notes: z.string().max(2000),
});

export function AlternativeMedPanel({ entry, user, onDone }: PanelProps) {
  const rx = entry.prescription;
  const notesId = useId();
  const send = useSendAlternativeMed();
  const form = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { notes: '' } });
  const error = form.formState.errors.choice?.message;
  const { confirmSend, dialog: sendDialog } = useSendConfirmation(user);
  return (
    <section className={styles.panel} aria-labelledby="alt-heading">
      {sendDialog}
      <h2 id="alt-heading">Alternative medication</h2>
      <p>{SUBSTITUTION_REASON_TEXT[rx.substitutionStatus ?? ''] ?? 'The pharmacy proposes an alternative.'}</p>
      <FormAlert message={failure(send.error)} />
      <form
        noValidate
        className={styles.fieldset}
        aria-labelledby="alt-heading"
        onSubmit={form.handleSubmit(({ choice, notes }) => {
          const noSubstitute = choice === NO_SUBSTITUTE;
          confirmSend({
            title: 'Send this choice to the pharmacy?',
            confirmLabel: 'Send choice',
            summary: (
              <p>
                To the pharmacy, by fax, for {patientName(entry.patient)}:{' '}
                {noSubstitute
                  ? `no substitution, dispense ${drugLabel(rx)} as prescribed`
                  : `dispense ${choice} instead of ${drugLabel(rx)}`}
                {notes ? `. Notes: “${notes}”` : ''}. Signed {user.userName}.
              </p>
            ),
            send: (skip) =>
              send.mutate(
                {
                  prescriptionId: rx.id,
                  noSubstitute,
                  selectedAlternativeMed: noSubstitute ? null : choice,
                  notes,
                  senderName: user.userName,
                  ...sendChoice(skip),
                },
                { onSuccess: (result) => onDone(noSubstitute ? 'Sent: no substitution.' : `Sent: ${choice}.`, result.undo) },
              ),
          });
        })}
      >
        <fieldset className={styles.fieldset} aria-describedby={error ? 'alt-error' : undefined}>
          <legend>Dispense instead</legend>
          {rx.alternativeMeds.map((name) => (
            <label key={name} className={styles.choice}>
              <input type="radio" value={name} {...form.register('choice')} />
              {name}
            </label>
          ))}
          <label className={styles.choice}>
            <input type="radio" value={NO_SUBSTITUTE} {...form.register('choice')} />
            No substitution: dispense as prescribed
          </label>
          {error ? (
            <span id="alt-error" className={styles.fieldError}>
              {error}
            </span>
          ) : null}
        </fieldset>
        <label className={styles.label} htmlFor={notesId}>
          Notes to the pharmacy (optional)
          <textarea id={notesId} rows={3} {...form.register('notes')} />
        </label>
        <div className={styles.row}>
          <button type="submit" className={styles.button} disabled={send.isPending}>
            Send to pharmacy
          </button>
          <button
            type="button"
            className={styles.secondary}
            onClick={() => void openHtmlWindow(() => getAlternativeMedsPrint(rx.id))}
          >
            Print request
          </button>
        </div>
      </form>
    </section>
  );
}
