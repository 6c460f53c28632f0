import {
  APPEAL_FILE_TYPES_TEXT,
  APPEAL_SLOTS,
  type Appeal,
  type AppealDraft,
  appealDraftSchema,
  appealSubmitProblems,
  formatDateTime,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { type Path, useForm } from 'react-hook-form';
import type { z } from 'zod';
import controls from '../../../components/controls.module.css';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { RadioGroup } from '../../../components/radio-group.tsx';
import { applyServerFieldErrors } from '../../../lib/form-errors.ts';
import { ServiceError } from '../../../lib/service-error.ts';
import { keepLocalDraft, readAppealSession } from '../api/appeal-session.ts';
import { saveAppeal, useSaveAppeal } from '../api/save-appeal.ts';
import { useSubmitAppeal } from '../api/submit-appeal.ts';
import { appealFailureText } from '../utils/appeal-failure.ts';
import { AppealSummary } from './appeal-summary.tsx';
import styles from './appeals.module.css';
import { AttachmentSlot } from './attachment-slot.tsx';
import { EarlierFiles } from './earlier-files.tsx';

/** A pause in typing this long saves the draft to the server (a reload or a closed tab keeps it anyway). */
export const AUTOSAVE_DELAY_MS = 1500;

const URGENCY = [
  { value: 'standard', label: 'Standard (the plan decides within its usual time)' },
  { value: 'expedited', label: 'Expedited (waiting could seriously harm the patient’s health)' },
] as const;

/**
 * The appeal: what was denied, the prescriber's case, the four attachment slots and the attestation. Every
 * change is kept in the tab at once and saved to the server after a pause, on "Save draft" and when leaving;
 * submit checks the contract's completeness rule first and asks for confirmation.
 */
export function AppealForm({
  appeal,
  clinicalNotesRequired,
  prepareOnly = false,
}: {
  appeal: Appeal;
  clinicalNotesRequired: boolean;
  /** The practice's people prepare it for the prescriber (issue 23): the attestation and the submit stay theirs. */
  prepareOnly?: boolean;
}) {
  const ids = { justification: useId(), codes: useId(), tried: useId(), hint: useId(), status: useId() };
  const local = readAppealSession()?.draft;
  const save = useSaveAppeal(appeal.id);
  const submit = useSubmitAppeal(appeal.id);
  /** The values being confirmed (the dialog is open while set). */
  const [confirming, setConfirming] = useState<AppealDraft | null>(null);
  const [notesProblem, setNotesProblem] = useState<string | undefined>();
  const [savedAt, setSavedAt] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    getValues,
    setError,
    watch,
    formState: { errors },
  } = useForm<z.input<typeof appealDraftSchema>, unknown, AppealDraft>({
    resolver: zodResolver(appealDraftSchema),
    defaultValues: local ?? appeal.draft,
  });

  /** The form's values as a draft the server takes (null while one is over a limit: the field shows why). */
  const currentDraft = useCallback((): AppealDraft | null => {
    const parsed = appealDraftSchema.safeParse(getValues());
    return parsed.success ? parsed.data : null;
  }, [getValues]);

  // Unsaved edits: kept in the tab on every change, sent after a pause, and sent on leaving (keepalive).
  const pending = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const saveMutate = save.mutate;
  useEffect(() => {
    const flush = () => {
      const draft = currentDraft();
      if (!pending.current || !draft) return;
      pending.current = false;
      saveMutate(draft, { onSuccess: () => setSavedAt(new Date().toISOString()) });
    };
    const subscription = watch((values) => {
      const draft = appealDraftSchema.safeParse(values);
      if (!draft.success) return;
      keepLocalDraft(appeal.id, draft.data);
      pending.current = true;
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, AUTOSAVE_DELAY_MS);
    });
    const onLeave = () => {
      const draft = currentDraft();
      if (!pending.current || !draft) return;
      pending.current = false;
      void saveAppeal(appeal.id, draft, { keepalive: true }).catch(() => undefined);
    };
    window.addEventListener('pagehide', onLeave);
    return () => {
      subscription.unsubscribe();
      clearTimeout(timer.current);
      window.removeEventListener('pagehide', onLeave);
      // Leaving the screen inside the app: the last edits go too.
      onLeave();
    };
  }, [appeal.id, currentDraft, watch, saveMutate]);

  const otherBytes = (slot: string) => appeal.files.filter((f) => f.slot !== slot).reduce((total, f) => total + f.sizeBytes, 0);

  const onSubmit = handleSubmit((values) => {
    const problems = appealSubmitProblems({ draft: values, files: appeal.files, clinicalNotesRequired });
    setNotesProblem(problems.find((p) => p.path === 'clinicalNotesFile')?.message);
    const fieldProblems = problems.filter((p) => p.path !== 'clinicalNotesFile');
    fieldProblems.forEach((p, index) => {
      setError(p.path as Path<AppealDraft>, { type: 'required', message: p.message }, { shouldFocus: index === 0 });
    });
    if (problems.length === 0) setConfirming(values);
  });

  const send = (draft: AppealDraft) => {
    clearTimeout(timer.current);
    pending.current = false;
    submit.mutate(draft, {
      onSettled: () => setConfirming(null),
      onError: (error) => {
        applyServerFieldErrors(error, setError, 'appeal.');
        // The attachment the server found missing belongs to its slot, not to a form field.
        const notes =
          error instanceof ServiceError ? error.details.find((d) => d.path === 'appeal.clinicalNotesFile') : undefined;
        if (notes) setNotesProblem(notes.message);
      },
    });
  };

  const saveNow = () => {
    const draft = currentDraft();
    if (!draft) return;
    clearTimeout(timer.current);
    pending.current = false;
    save.mutate(draft, { onSuccess: () => setSavedAt(new Date().toISOString()) });
  };

  const status = save.isPending
    ? 'Saving the draft…'
    : save.isError
      ? null
      : savedAt
        ? `Draft saved ${formatDateTime(savedAt)}.`
        : null;

  return (
    <div className={styles.layout}>
      <AppealSummary appeal={appeal} />
      <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Appeal">
        <fieldset className={styles.section}>
          <legend>Your case</legend>
          <div className={styles.field}>
            <label htmlFor={ids.justification}>Clinical justification (required)</label>
            <p className={styles.muted} id={`${ids.justification}-hint`}>
              Why this patient needs this medication: diagnosis, severity, and why the alternatives do not suit them.
            </p>
            <textarea
              id={ids.justification}
              rows={7}
              className={controls.control}
              aria-invalid={errors.clinicalJustification ? true : undefined}
              aria-describedby={`${ids.justification}-hint${errors.clinicalJustification ? ` ${ids.justification}-error` : ''}`}
              {...register('clinicalJustification')}
            />
            {errors.clinicalJustification ? (
              <p id={`${ids.justification}-error`} className={styles.error}>
                {errors.clinicalJustification.message}
              </p>
            ) : null}
          </div>
          <div className={styles.field}>
            <label htmlFor={ids.codes}>Diagnosis codes (ICD-10)</label>
            <input id={ids.codes} className={controls.control} autoComplete="off" {...register('diagnosisCodes')} />
          </div>
          <div className={styles.field}>
            <label htmlFor={ids.tried}>Treatments tried and failed</label>
            <textarea id={ids.tried} rows={4} className={controls.control} {...register('treatmentsTried')} />
          </div>
          <RadioGroup legend="Urgency" options={URGENCY} error={errors.urgency?.message} {...register('urgency')} />
        </fieldset>

        <fieldset className={styles.section}>
          <legend>Attachments</legend>
          <p className={styles.muted} id={ids.hint}>
            Check each document you are sending, then choose its file: {APPEAL_FILE_TYPES_TEXT}, up to 10 MB each and 25 MB
            together.
          </p>
          {APPEAL_SLOTS.map((slot) => (
            <AttachmentSlot
              key={slot}
              appealId={appeal.id}
              slot={slot}
              file={appeal.files.find((f) => f.slot === slot)}
              required={slot === 'clinicalNotesFile' && clinicalNotesRequired}
              otherSlotsBytes={otherBytes(slot)}
              problem={slot === 'clinicalNotesFile' ? notesProblem : undefined}
              hintId={ids.hint}
            />
          ))}
          <EarlierFiles appealId={appeal.id} files={appeal.files} />
        </fieldset>

        <fieldset className={styles.section}>
          <legend>Attestation</legend>
          <label className={controls.check}>
            <input
              type="checkbox"
              aria-invalid={errors.attestation ? true : undefined}
              aria-describedby={errors.attestation ? `${ids.status}-attestation` : undefined}
              disabled={prepareOnly}
              {...register('attestation')}
            />
            I am the prescriber, and the information in this appeal is true and complete to the best of my knowledge.
          </label>
          {prepareOnly ? (
            <p className={styles.muted}>
              You are preparing this appeal for {appeal.prescriberName}: what you fill in and attach is kept for them, and they
              attest and submit it.
            </p>
          ) : null}
          {errors.attestation ? (
            <p id={`${ids.status}-attestation`} className={styles.error}>
              {errors.attestation.message}
            </p>
          ) : null}
        </fieldset>

        <div className={styles.actions}>
          {prepareOnly ? null : (
            <button type="submit" className={controls.primary} disabled={submit.isPending}>
              {submit.isPending ? 'Submitting…' : 'Submit appeal'}
            </button>
          )}
          <button
            type="button"
            className={prepareOnly ? controls.primary : controls.secondary}
            onClick={saveNow}
            disabled={save.isPending}
          >
            Save draft
          </button>
          <p className={styles.muted} role="status" id={ids.status}>
            {status}
          </p>
        </div>
        <FormAlert message={save.error ? appealFailureText(save.error) : null} />
        {confirming === null ? <FormAlert message={submit.error ? appealFailureText(submit.error) : null} /> : null}
      </form>

      <Dialog
        open={confirming !== null}
        title="Submit this appeal?"
        onClose={() => setConfirming(null)}
        actions={
          <>
            <button
              type="button"
              className={controls.primary}
              onClick={() => confirming && send(confirming)}
              disabled={submit.isPending}
            >
              {submit.isPending ? 'Submitting…' : 'Submit appeal'}
            </button>
            <button type="button" className={controls.secondary} onClick={() => setConfirming(null)}>
              Keep editing
            </button>
          </>
        }
      >
        <p>
          The pharmacy receives the appeal for {appeal.patientName} ({appeal.drugName}) with {appeal.files.length}{' '}
          {appeal.files.length === 1 ? 'attachment' : 'attachments'} at once and sends it to the plan. It cannot be changed
          afterwards.
        </p>
      </Dialog>
    </div>
  );
}
