import {
  COMMUNICATION_MODE_LABELS,
  COMMUNICATION_MODES,
  type MdOffice,
  type MdOfficeCommPrefs,
  mdOfficeCommPrefsSchema,
  PA_HANDLING_LABELS,
  PA_HANDLING_OPTIONS,
  REFILL_REQUEST_LABELS,
  REFILL_REQUEST_OPTIONS,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { showSaveFailure } from '../lib/form-errors.ts';
import { useUpdateMdOfficeCommPrefs } from '../lib/practices/update-md-office-comm-prefs.ts';
import styles from './practice-preferences-form.module.css';
import { optionsOf, RadioGroup } from './radio-group.tsx';
import { SubmitRow } from './submit-row.tsx';
import { UnsavedChangesGuard } from './unsaved-changes.tsx';

type Values = Omit<MdOfficeCommPrefs, 'notOnboarded'> & { onboarded: boolean };
const valuesOf = (office: MdOffice): Values => ({
  communicationMode: office.mdOfficePrefs.communicationMode,
  paHandling: office.mdOfficePrefs.paHandling,
  refillRequestOption: office.mdOfficePrefs.refillRequestOption,
  onboarded: !office.mdOfficePrefs.notOnboarded,
});
const schema = mdOfficeCommPrefsSchema
  .omit({ notOnboarded: true })
  .extend({ onboarded: mdOfficeCommPrefsSchema.shape.notOnboarded });

/** How a practice wants to be contacted, how it handles prior authorizations and refill requests, and whether it is onboarded. */
export function PracticePreferencesForm({ office }: { office: MdOffice }) {
  const save = useUpdateMdOfficeCommPrefs(office.id);
  const { register, handleSubmit, formState, setError, reset } = useForm<Values>({
    resolver: zodResolver(schema),
    defaultValues: valuesOf(office),
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async ({ onboarded, ...prefs }) => {
    try {
      const saved = await save.mutateAsync({ ...prefs, notOnboarded: !onboarded });
      reset(valuesOf(saved));
      toast.success('Communication preferences saved.');
    } catch (error) {
      showSaveFailure(error, setError);
    }
  });
  return (
    <form className={styles.stack} onSubmit={onSubmit} noValidate aria-label="Communication preferences">
      <UnsavedChangesGuard when={formState.isDirty && !formState.isSubmitting} />
      <RadioGroup
        legend="Communication mode"
        options={optionsOf(COMMUNICATION_MODES, COMMUNICATION_MODE_LABELS)}
        error={errors.communicationMode?.message}
        {...register('communicationMode')}
      />
      <RadioGroup
        legend="Prior authorization handling"
        options={optionsOf(PA_HANDLING_OPTIONS, PA_HANDLING_LABELS)}
        error={errors.paHandling?.message}
        {...register('paHandling')}
      />
      <RadioGroup
        legend="Refill requests"
        options={optionsOf(REFILL_REQUEST_OPTIONS, REFILL_REQUEST_LABELS)}
        error={errors.refillRequestOption?.message}
        {...register('refillRequestOption')}
      />
      <label className={styles.check}>
        <input type="checkbox" {...register('onboarded')} />
        Onboarded
      </label>
      <SubmitRow label={'Save preferences'} busy={formState.isSubmitting} error={errors.root?.server?.message} />
    </form>
  );
}
