import { type CoverageFormValues, coverageFormSchema, coverageInputOf, localTodayIso, type PracticeSigning } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { DayField } from '../../../components/day-field.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { focusWhenReady } from '../../../lib/focus.ts';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useAddCoverage } from '../api/add-coverage.ts';
import styles from '../routes/covering-prescribers.module.css';

/** Quick choices for a coverage's last day: a week, two, a month. */
const COVERAGE_QUICK_DAYS = [7, 14, 30] as const;

/** Server field errors name the call's fields; the form's days stand for its instants. */
const FIELD_OF_PATH: Record<string, keyof CoverageFormValues> = { startsAt: 'firstDay', endsAt: 'lastDay' };

/** Names a colleague who signs for a prescriber from a first day through a last day (the reader's calendar). */
export function CoverageForm({
  userId,
  practice,
  ownPrescriberId,
  headingLevel,
  onDone,
}: {
  userId: string;
  practice: PracticeSigning;
  ownPrescriberId: string | null;
  /** Under the practice's own heading (several practices) or straight under the page's (issue 47: heading order). */
  headingLevel: 2 | 3;
  /** After a save, with the new coverage's id (its row takes focus). */
  onDone: (savedId?: string) => void;
}) {
  const add = useAddCoverage(userId);
  const formRef = useRef<HTMLFormElement>(null);
  // Opened, the form takes focus on its first field (the button that opened it is gone): the one focus rule.
  useEffect(() => {
    focusWhenReady(() => formRef.current?.querySelector('select'));
  }, []);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const today = localTodayIso();
  const { register, control, handleSubmit, formState, setError } = useForm<CoverageFormValues>({
    resolver: zodResolver(coverageFormSchema),
    defaultValues: {
      coveringPrescriberId: '',
      // Most often a prescriber names who covers for them while they are away.
      coveredPrescriberId: practice.prescribers.some((p) => p.id === ownPrescriberId) ? (ownPrescriberId ?? '') : '',
      firstDay: today,
      lastDay: '',
    },
  });
  const errors = formState.errors;
  const options = practice.prescribers.map((p) => ({ value: p.id, label: p.name }));

  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await add.mutateAsync(coverageInputOf(practice.practiceId, values));
      toast.success(`${saved.coveringPrescriber.name} covers for ${saved.coveredPrescriber.name}.`);
      onDone(saved.id);
    } catch (error) {
      showSaveFailure<CoverageFormValues>(error, (name, fieldError, options) =>
        setError(FIELD_OF_PATH[name] ?? name, fieldError, options),
      );
    }
  });

  return (
    <form
      ref={formRef}
      className={styles.form}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`coverage-form-${practice.practiceId}`}
    >
      <Heading id={`coverage-form-${practice.practiceId}`}>Name a covering prescriber</Heading>
      <SelectField
        label="Covering prescriber"
        options={options}
        emptyLabel="Choose…"
        error={errors.coveringPrescriberId?.message}
        {...register('coveringPrescriberId')}
      />
      <SelectField
        label="Covers for"
        options={options}
        emptyLabel="Choose…"
        error={errors.coveredPrescriberId?.message}
        {...register('coveredPrescriberId')}
      />
      <div className={styles.days}>
        <Controller
          control={control}
          name="firstDay"
          render={({ field, fieldState }) => (
            <DayField label="First day" {...field} error={fieldState.error?.message} today={today} min={today} />
          )}
        />
        <Controller
          control={control}
          name="lastDay"
          render={({ field, fieldState }) => (
            // A covering week or two is the usual ask: quick choices count from today.
            <DayField
              label="Last day"
              {...field}
              error={fieldState.error?.message}
              today={today}
              min={today}
              quickDays={COVERAGE_QUICK_DAYS}
            />
          )}
        />
      </div>
      <div className={styles.buttons}>
        <button type="submit" className={controls.primary} disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Saving…' : 'Save coverage'}
        </button>
        <button type="button" className={controls.secondary} onClick={() => onDone()}>
          Cancel
        </button>
      </div>
      <FormAlert message={errors.root?.server?.message} />
    </form>
  );
}
