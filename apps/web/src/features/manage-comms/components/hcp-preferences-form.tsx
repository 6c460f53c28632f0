import {
  COMMUNICATION_MODE_LABELS,
  COMMUNICATION_MODES,
  EMAIL_OPT_LABELS,
  EMAIL_OPT_MODES,
  type MdPartnerCommPrefs,
  type MdStaff,
  mdPartnerCommPrefsSchema,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { optionsOf, RadioGroup } from '../../../components/radio-group.tsx';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes.tsx';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useUpdateMdPartnerCommPrefs } from '../api/update-md-partner-comm-prefs.ts';
import styles from './manage-comms.module.css';

/** How an HCP or staff member wants to be contacted. */
export function HcpPreferencesForm({ person }: { person: MdStaff }) {
  const save = useUpdateMdPartnerCommPrefs(person.id);
  const { register, handleSubmit, formState, setError, reset } = useForm<MdPartnerCommPrefs>({
    resolver: zodResolver(mdPartnerCommPrefsSchema),
    defaultValues: person.commPrefs,
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (prefs) => {
    try {
      reset((await save.mutateAsync(prefs)).commPrefs);
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
        legend="Email updates"
        options={optionsOf(EMAIL_OPT_MODES, EMAIL_OPT_LABELS)}
        error={errors.emailOptIn?.message}
        {...register('emailOptIn')}
      />
      <SubmitRow label={'Save preferences'} busy={formState.isSubmitting} error={errors.root?.server?.message} />
    </form>
  );
}
