import {
  DEA_SCHEDULES,
  type DeaRegistration,
  type DeaRegistrationInput,
  deaRegistrationInputSchema,
  formatApiDate,
  localTodayIso,
  US_STATES,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { DayField } from '../../../components/day-field.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import radios from '../../../components/radio-group.module.css';
import { SelectField } from '../../../components/select-field.tsx';
import { Table } from '../../../components/table/table.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { focusWhenReady } from '../../../lib/focus.ts';
import { failureText, showSaveFailure } from '../../../lib/form-errors.ts';
import { useAddRegistration } from '../api/add-registration.ts';
import { useRemoveRegistration } from '../api/remove-registration.ts';
import styles from '../routes/controlled-substances.module.css';

const STATE_OPTIONS = US_STATES.map((s) => ({ value: s, label: s }));

function RegistrationForm({ userId, onDone }: { userId: string; onDone: (added: boolean) => void }) {
  const add = useAddRegistration(userId);
  const today = localTodayIso();
  const schedulesError = useId();
  const { register, control, handleSubmit, formState, setError } = useForm<DeaRegistrationInput>({
    resolver: zodResolver(deaRegistrationInputSchema) as never,
    defaultValues: { number: '', schedules: [...DEA_SCHEDULES], state: '' as never, expiresOn: '' },
  });
  const errors = formState.errors;
  const formRef = useRef<HTMLFormElement>(null);
  // Opened, the form takes focus on its first field (the button that opened it is gone): the one focus rule.
  useEffect(() => {
    focusWhenReady(() => formRef.current?.querySelector('input'));
  }, []);
  const onSubmit = handleSubmit(async (values) => {
    try {
      const saved = await add.mutateAsync(values);
      toast.success(`DEA registration ${saved.number} added.`);
      onDone(true);
    } catch (error) {
      showSaveFailure<DeaRegistrationInput>(error, setError);
    }
  });
  return (
    <form ref={formRef} className={styles.form} onSubmit={onSubmit} noValidate aria-labelledby="dea-form-title">
      <h3 id="dea-form-title">Add a DEA registration</h3>
      <TextField
        label="DEA number"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={20}
        error={errors.number?.message}
        {...register('number')}
      />
      <fieldset className={radios.group} aria-describedby={errors.schedules ? schedulesError : undefined}>
        <legend>Schedules it covers</legend>
        {DEA_SCHEDULES.map((schedule) => (
          <label key={schedule} className={radios.option}>
            <input type="checkbox" value={schedule} {...register('schedules')} />
            Schedule {schedule}
          </label>
        ))}
        {errors.schedules ? (
          <p id={schedulesError} className={radios.error}>
            {errors.schedules.message}
          </p>
        ) : null}
      </fieldset>
      <SelectField
        label="State"
        options={STATE_OPTIONS}
        emptyLabel="Choose…"
        error={errors.state?.message}
        {...register('state')}
      />
      <Controller
        control={control}
        name="expiresOn"
        render={({ field, fieldState }) => (
          <DayField label="Valid through" {...field} error={fieldState.error?.message} today={today} min={today} />
        )}
      />
      <div className={styles.buttons}>
        <button type="submit" className={controls.primary} disabled={formState.isSubmitting}>
          {formState.isSubmitting ? 'Saving…' : 'Save registration'}
        </button>
        <button type="button" className={controls.secondary} onClick={() => onDone(false)}>
          Cancel
        </button>
      </div>
      <FormAlert message={errors.root?.server?.message} />
    </form>
  );
}

/** A prescriber's DEA registrations: number, schedules, state, last valid day; add and remove. */
export function Registrations({ userId, registrations }: { userId: string; registrations: DeaRegistration[] }) {
  const [adding, setAdding] = useState(false);
  const remove = useRemoveRegistration(userId);
  const addId = 'dea-add';
  const today = localTodayIso();
  return (
    <section aria-labelledby="dea-title" className={styles.section}>
      <h2 id="dea-title">Your DEA registrations</h2>
      <Table<DeaRegistration>
        caption="Your DEA registrations"
        rows={registrations}
        rowKey={(r) => r.id}
        emptyMessage="No DEA registration on record. Add one to sign controlled substances."
        columns={[
          { key: 'number', header: 'DEA number', cell: (r) => r.number },
          { key: 'schedules', header: 'Schedules', cell: (r) => r.schedules.join(', ') },
          { key: 'state', header: 'State', cell: (r) => r.state },
          {
            key: 'expires',
            header: 'Valid through',
            cell: (r) => `${formatApiDate(r.expiresOn)}${r.expiresOn < today ? ' (expired)' : ''}`,
          },
        ]}
        actions={(r) => (
          <button
            type="button"
            className={controls.secondary}
            aria-label={`Remove DEA registration ${r.number}`}
            disabled={remove.isPending}
            onClick={() =>
              remove.mutate(r.id, {
                onSuccess: () => {
                  toast.success(`DEA registration ${r.number} removed.`);
                  focusWhenReady(() => document.getElementById(addId));
                },
                onError: (error) => toast.error(failureText(error)),
              })
            }
          >
            Remove
          </button>
        )}
      />
      {adding ? (
        <RegistrationForm
          userId={userId}
          onDone={() => {
            setAdding(false);
            focusWhenReady(() => document.getElementById(addId));
          }}
        />
      ) : (
        <p>
          <button id={addId} type="button" className={controls.secondary} onClick={() => setAdding(true)}>
            Add a DEA registration
          </button>
        </p>
      )}
    </section>
  );
}
