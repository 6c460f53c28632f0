/**
 * The frame both communication-preference forms share (a practice's and a person's): the unsaved-changes guard, the
 * communication mode, saving with its toast or the server's field errors, and the submit row. Each form brings its
 * own fields and how its values map to the saved record.
 */
import { COMMUNICATION_MODE_LABELS, COMMUNICATION_MODES } from '@hcp/contract';
import type { ReactNode } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { toast } from 'sonner';
import { showSaveFailure } from '../lib/form-errors.ts';
import { optionsOf, RadioGroup } from './radio-group.tsx';
import { SubmitRow } from './submit-row.tsx';
import { UnsavedChangesGuard } from './unsaved-changes.tsx';

export function CommPrefsForm<V extends FieldValues>({
  form,
  save,
  className,
  children,
}: {
  form: UseFormReturn<V>;
  /** Saves the values and answers them as saved (the form starts again from them). */
  save: (values: V) => Promise<V>;
  className: string | undefined;
  /** The form's own fields, after the communication mode. */
  children: ReactNode;
}) {
  const { formState } = form;
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      form.reset(await save(values));
      toast.success('Communication preferences saved.');
    } catch (error) {
      showSaveFailure(error, form.setError);
    }
  });
  const modeError = formState.errors.communicationMode?.message;
  return (
    <form className={className} onSubmit={onSubmit} noValidate aria-label="Communication preferences">
      <UnsavedChangesGuard when={formState.isDirty && !formState.isSubmitting} />
      <RadioGroup
        legend="Communication mode"
        options={optionsOf(COMMUNICATION_MODES, COMMUNICATION_MODE_LABELS)}
        error={typeof modeError === 'string' ? modeError : undefined}
        {...form.register('communicationMode' as Path<V>)}
      />
      {children}
      <SubmitRow label="Save preferences" busy={formState.isSubmitting} error={formState.errors.root?.server?.message} />
    </form>
  );
}
