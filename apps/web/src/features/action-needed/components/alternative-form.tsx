import type { UndoOffer, UserDetails } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { type ReactNode, useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import { useSendAlternativeMed } from '../api/send-alternative-med.ts';
import { failure, NO_SUBSTITUTE } from '../utils/decision-values.ts';
import styles from './action-needed.module.css';
import { DecisionButtons, decisionFormKeys } from './decision-form.tsx';
import { sendChoice, useSendConfirmation } from './send-confirmation.tsx';

const schema = z.object({
  choice: z
    .string({ message: 'Choose an alternative, or no substitution.' })
    .min(1, { message: 'Choose an alternative, or no substitution.' }),
  notes: z.string().max(2000),
});

/** The substitution the choice answers, as the confirmation names it. */
export interface AlternativeTarget {
  prescriptionId: string;
  alternativeMeds: string[];
  drug: string;
  patient: string;
}

/**
 * Sends the prescriber's answer to a substitution, after showing what goes (unless the user chose to skip that):
 * the form's submit and the queue's number keys (issue 22) both send through it.
 */
export function useAlternativeChoice(user: UserDetails | undefined, onDone: (message: string, undo?: UndoOffer) => void) {
  const send = useSendAlternativeMed();
  const { confirmSend, dialog } = useSendConfirmation(user);
  const choose = (target: AlternativeTarget, choice: string, notes = '') => {
    // Signed by name: nothing goes before the user's details are known.
    if (!user) return;
    const noSubstitute = choice === NO_SUBSTITUTE;
    confirmSend({
      title: 'Send this choice to the pharmacy?',
      confirmLabel: 'Send choice',
      summary: (
        <p>
          To the pharmacy, by fax, for {target.patient}:{' '}
          {noSubstitute
            ? `no substitution, dispense ${target.drug} as prescribed`
            : `dispense ${choice} instead of ${target.drug}`}
          {notes ? `. Notes: “${notes}”` : ''}. Signed {user.userName}.
        </p>
      ),
      send: (skip) =>
        send.mutate(
          {
            prescriptionId: target.prescriptionId,
            noSubstitute,
            selectedAlternativeMed: noSubstitute ? null : choice,
            notes,
            senderName: user.userName,
            ...sendChoice(skip),
          },
          { onSuccess: (result) => onDone(noSubstitute ? 'Sent: no substitution.' : `Sent: ${choice}.`, result.undo) },
        ),
    });
  };
  return { choose, dialog, error: send.error, isPending: send.isPending };
}

/**
 * The alternative to dispense instead, or none: on the substitution's detail page and inline in the queue, one
 * form. Ctrl+Enter (⌘+Enter) sends from anywhere in it.
 */
export function AlternativeForm({
  target,
  user,
  onDone,
  onCancel,
  autoFocus = false,
  extraActions,
}: {
  target: AlternativeTarget;
  user: UserDetails;
  onDone: (message: string, undo?: UndoOffer) => void;
  /** Inline: Escape or Cancel closes the form without sending. */
  onCancel?: () => void;
  autoFocus?: boolean;
  extraActions?: ReactNode;
}) {
  const ids = { legend: useId(), notes: useId(), error: useId() };
  const { choose, dialog, error: sendError, isPending } = useAlternativeChoice(user, onDone);
  const form = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { notes: '' } });
  const error = form.formState.errors.choice?.message;
  const submit = form.handleSubmit(({ choice, notes }) => choose(target, choice, notes));
  useEffect(() => {
    if (autoFocus) form.setFocus('choice');
  }, [autoFocus, form]);
  const onKeyDown = decisionFormKeys(submit, onCancel);
  return (
    <>
      {dialog}
      <form noValidate className={styles.fieldset} aria-labelledby={ids.legend} onSubmit={submit} onKeyDown={onKeyDown}>
        <FormAlert message={failure(sendError)} />
        <fieldset className={styles.fieldset} aria-describedby={error ? ids.error : undefined}>
          <legend id={ids.legend}>Dispense instead</legend>
          {target.alternativeMeds.map((name) => (
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
            <span id={ids.error} className={styles.fieldError}>
              {error}
            </span>
          ) : null}
        </fieldset>
        <label className={styles.label} htmlFor={ids.notes}>
          Notes to the pharmacy (optional)
          <textarea id={ids.notes} rows={3} {...form.register('notes')} />
        </label>
        <DecisionButtons label="Send to pharmacy" busy={isPending} onCancel={onCancel}>
          {extraActions}
        </DecisionButtons>
      </form>
    </>
  );
}
