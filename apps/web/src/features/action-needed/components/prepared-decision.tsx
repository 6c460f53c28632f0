/**
 * Prepare-then-sign on an item's page (issue 23): office staff prepare a refill decision for the prescriber's
 * signature and mark it ready; the prescriber reads exactly what was prepared, by whom, with the note, and signs it
 * as prepared (one confirmation) — or decides otherwise with the usual forms, which ends the preparation.
 */
import {
  denialReasonInSentence,
  describePrepared,
  normalizeError,
  type PreparedDecision,
  type PreparedDecisionInput,
  preparedDecisionInputSchema,
  type UndoOffer,
  type UserDetails,
} from '@hcp/contract';
import { useId, useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { usePrepareDecision, useWithdrawPrepared } from '../api/prepare-decision.ts';
import { useSignPrepared } from '../api/sign-prepared.ts';
import { NO_SUBSTITUTE } from '../utils/decision-values.ts';
import { preparedText } from '../utils/prepared-text.ts';
import styles from './action-needed.module.css';
import { RefillsSigFields } from './refills-sig-fields.tsx';

/** What was prepared; the prescriber signs it as prepared, its preparer (or anyone of the practice) withdraws it. */
export function PreparedBox({
  prescriptionId,
  prepared,
  canSign,
  user,
  about,
  onDone,
}: {
  prescriptionId: string;
  prepared: PreparedDecision;
  canSign: boolean;
  user: UserDetails;
  about: string;
  onDone: (message: string, undo?: UndoOffer) => void;
}) {
  const sign = useSignPrepared();
  const withdraw = useWithdrawPrepared();
  const [confirming, setConfirming] = useState(false);
  const refusal = sign.data?.results.find((r) => r.status === 'refused')?.reason ?? null;
  return (
    <section className={styles.prepared} aria-labelledby="prepared-heading">
      <h3 id="prepared-heading">Ready to sign</h3>
      <p>{preparedText(prepared)}</p>
      {prepared.decision.note ? <p>Note: {prepared.decision.note}</p> : null}
      <FormAlert
        message={refusal ?? ((sign.error ?? withdraw.error) ? normalizeError(sign.error ?? withdraw.error).message : null)}
      />
      <div className={styles.row}>
        {canSign ? (
          <button type="button" className={styles.button} disabled={sign.isPending} onClick={() => setConfirming(true)}>
            Sign as prepared
          </button>
        ) : null}
        <button
          type="button"
          className={styles.secondary}
          disabled={withdraw.isPending}
          onClick={() => withdraw.mutate({ prescriptionId }, { onSuccess: () => onDone('The prepared decision is withdrawn.') })}
        >
          Withdraw
        </button>
      </div>
      <Dialog
        open={confirming}
        title="Sign and send as prepared?"
        onClose={() => setConfirming(false)}
        actions={
          <>
            <button type="button" className={styles.secondary} onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button
              type="button"
              className={styles.button}
              data-autofocus
              onClick={() => {
                setConfirming(false);
                sign.mutate(
                  { items: [{ id: prescriptionId }], senderName: user.userName },
                  {
                    onSuccess: (result) => {
                      if (result.done === 1) onDone(`Signed as prepared: ${describePrepared(prepared.decision)}.`, result.undo);
                    },
                  },
                );
              }}
            >
              Sign and send
            </button>
          </>
        }
      >
        <p>
          To the pharmacy: {about}. {describePrepared(prepared.decision)}. Signed {user.userName}.
        </p>
      </Dialog>
    </section>
  );
}

/** The note for the prescriber, what went wrong, and "Mark ready to sign": the end of every preparation form. */
function PrepareFooter({
  note,
  error,
  problem,
  busy,
}: {
  note: UseFormRegisterReturn;
  error: unknown;
  problem?: string | undefined;
  busy: boolean;
}) {
  const id = useId();
  return (
    <>
      <label className={styles.label} htmlFor={id}>
        Note for the prescriber (optional)
        <textarea id={id} rows={2} {...note} />
      </label>
      <FormAlert message={error ? normalizeError(error).message : problem} />
      <div className={styles.row}>
        <button type="submit" className={styles.button} disabled={busy}>
          Mark ready to sign
        </button>
      </div>
    </>
  );
}

type RefillChoice = 'fax' | 'erx' | 'visit' | 'stopped';
interface FormValues {
  choice: RefillChoice | '';
  refills: string;
  sig: string;
  note: string;
}

function decisionOf(values: FormValues): unknown {
  const note = values.note;
  switch (values.choice) {
    case 'fax':
      return { action: 'refillAuthorizedFax', refills: values.refills, sig: values.sig, note };
    case 'erx':
      return { action: 'refillAuthorizedErx', note };
    case 'visit':
      return { action: 'refillDenied', reason: 'NEED_OFFICE_VISIT', note };
    case 'stopped':
      return { action: 'refillDenied', reason: 'NO_LONGER_TAKING_MEDS', note };
    default:
      return { note };
  }
}

/** Staff prepare a refill decision for the prescriber: authorize (fax with refills and sig, or eRx) or deny. */
export function PrepareRefillForm({
  prescriptionId,
  refills,
  sig,
  faxOnly,
  onDone,
}: {
  prescriptionId: string;
  refills: number;
  sig: string | null;
  /** A standing rule sends this one's authorization by fax: eRx is not offered. */
  faxOnly: boolean;
  onDone: (message: string) => void;
}) {
  const prepare = usePrepareDecision();
  const ids = { error: useId() };
  const { register, handleSubmit, watch, setError, formState } = useForm<FormValues>({
    defaultValues: { choice: '', refills: String(refills), sig: sig ?? '', note: '' },
  });
  const choice = watch('choice');
  const errors = formState.errors;
  const onSubmit = handleSubmit((values) => {
    const parsed = preparedDecisionInputSchema.safeParse(decisionOf(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === 'sig' ? 'sig' : issue.path[0] === 'note' ? 'note' : 'choice';
        setError(field, { message: field === 'choice' ? 'Choose what the prescriber signs.' : issue.message });
      }
      return;
    }
    const decision: PreparedDecisionInput = parsed.data;
    prepare.mutate({ prescriptionId, decision }, { onSuccess: () => onDone(`Ready to sign: ${describePrepared(decision)}.`) });
  });
  return (
    <form className={styles.fieldset} aria-labelledby="prepare-heading" noValidate onSubmit={onSubmit}>
      <h3 id="prepare-heading">Prepare for the prescriber’s signature</h3>
      <p className={styles.notice}>
        A prescriber of the practice authorizes or denies refills. Prepare the decision and they sign it as you prepared it.
      </p>
      <fieldset
        className={styles.fieldset}
        aria-invalid={errors.choice ? true : undefined}
        aria-describedby={errors.choice ? ids.error : undefined}
      >
        <legend>The prescriber signs</legend>
        <label className={styles.choice}>
          <input type="radio" value="fax" {...register('choice')} />
          Authorize by fax
        </label>
        {faxOnly ? null : (
          <label className={styles.choice}>
            <input type="radio" value="erx" {...register('choice')} />
            Authorize by eRx
          </label>
        )}
        <label className={styles.choice}>
          <input type="radio" value="visit" {...register('choice')} />
          Deny: {denialReasonInSentence('NEED_OFFICE_VISIT')}
        </label>
        <label className={styles.choice}>
          <input type="radio" value="stopped" {...register('choice')} />
          Deny: {denialReasonInSentence('NO_LONGER_TAKING_MEDS')}
        </label>
        {errors.choice ? (
          <span id={ids.error} className={styles.fieldError}>
            {errors.choice.message}
          </span>
        ) : null}
      </fieldset>
      {choice === 'fax' ? (
        <RefillsSigFields refills={register('refills')} sig={register('sig')} sigError={errors.sig?.message} />
      ) : null}
      <PrepareFooter note={register('note')} error={prepare.error} busy={prepare.isPending} />
    </form>
  );
}

/** Staff prepare the answer to a substitution for the prescriber: an alternative, or no substitution. */
export function PrepareAlternativeForm({
  prescriptionId,
  alternatives,
  onDone,
}: {
  prescriptionId: string;
  alternatives: string[];
  onDone: (message: string) => void;
}) {
  const prepare = usePrepareDecision();
  const ids = { error: useId() };
  const { register, handleSubmit, setError, formState } = useForm<{ choice: string; note: string }>({
    defaultValues: { choice: '', note: '' },
  });
  const onSubmit = handleSubmit(({ choice, note }) => {
    if (!choice) {
      setError('choice', { message: 'Choose an alternative, or no substitution.' });
      return;
    }
    const parsed = preparedDecisionInputSchema.safeParse({
      action: 'alternativeMed',
      noSubstitute: choice === NO_SUBSTITUTE,
      selectedAlternativeMed: choice === NO_SUBSTITUTE ? null : choice,
      note,
    });
    if (!parsed.success) {
      setError('note', { message: parsed.error.issues[0]?.message ?? 'Check the note.' });
      return;
    }
    const decision = parsed.data;
    prepare.mutate({ prescriptionId, decision }, { onSuccess: () => onDone(`Ready to sign: ${describePrepared(decision)}.`) });
  });
  return (
    <form className={styles.fieldset} aria-labelledby="prepare-alt-heading" noValidate onSubmit={onSubmit}>
      <h3 id="prepare-alt-heading">Prepare for the prescriber’s signature</h3>
      <p className={styles.notice}>
        A prescriber chooses the alternative. Prepare the choice and they sign it as you prepared it.
      </p>
      <fieldset
        className={styles.fieldset}
        aria-invalid={formState.errors.choice ? true : undefined}
        aria-describedby={formState.errors.choice ? ids.error : undefined}
      >
        <legend>Dispense instead</legend>
        {alternatives.map((name) => (
          <label key={name} className={styles.choice}>
            <input type="radio" value={name} {...register('choice')} />
            {name}
          </label>
        ))}
        <label className={styles.choice}>
          <input type="radio" value={NO_SUBSTITUTE} {...register('choice')} />
          No substitution: dispense as prescribed
        </label>
        {formState.errors.choice ? (
          <span id={ids.error} className={styles.fieldError}>
            {formState.errors.choice.message}
          </span>
        ) : null}
      </fieldset>
      <PrepareFooter
        note={register('note')}
        error={prepare.error}
        problem={formState.errors.note?.message}
        busy={prepare.isPending}
      />
    </form>
  );
}
