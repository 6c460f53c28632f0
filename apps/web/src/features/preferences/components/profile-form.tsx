import {
  DIGEST_INTERVAL_MINUTES,
  type UserDetails,
  type UserPreferences,
  type UserPreferencesFormValues,
  userPreferencesSchema,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import styles from '../../../components/form-card.module.css';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { UnsavedChangesGuard } from '../../../components/unsaved-changes.tsx';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useSavePreferences } from '../api/save-preferences.ts';

const valuesOf = (user: UserDetails): UserPreferencesFormValues => ({
  userName: user.userName,
  phoneNumber: user.phoneNumber ?? '',
  skipPriorAuthDismissNotice: user.mdOfficeUserPrefs.skipPriorAuthDismissNotice,
  skipErxConfirmation: user.mdOfficeUserPrefs.skipErxConfirmation,
  skipSendConfirmation: user.mdOfficeUserPrefs.skipSendConfirmation,
  newRequestNotices: user.mdOfficeUserPrefs.newRequestNotices,
});

/** The user's own name, phone and the two "don't ask me again" choices of the action screens. */
export function ProfileForm({ user }: { user: UserDetails }) {
  const save = useSavePreferences(user.userId);
  const { register, handleSubmit, formState, setError, reset } = useForm<UserPreferencesFormValues, unknown, UserPreferences>({
    resolver: zodResolver(userPreferencesSchema),
    defaultValues: valuesOf(user),
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (prefs) => {
    try {
      reset(valuesOf(await save.mutateAsync(prefs)));
      toast.success('Preferences saved.');
    } catch (error) {
      showSaveFailure(error, setError);
    }
  });
  return (
    <section className={styles.card} aria-labelledby="profile-title">
      <h2 id="profile-title">Your details and notices</h2>
      <form onSubmit={onSubmit} noValidate>
        <UnsavedChangesGuard when={formState.isDirty && !formState.isSubmitting} />
        <TextField label="Full name" autoComplete="name" error={errors.userName?.message} {...register('userName')} />
        <TextField label="Email (sign-in)" value={user.email} readOnly disabled />
        <TextField
          label="Phone (optional)"
          type="tel"
          placeholder="(555) 555-5555"
          autoComplete="tel"
          error={errors.phoneNumber?.message}
          {...register('phoneNumber')}
        />
        <label className={styles.check}>
          <input type="checkbox" {...register('skipPriorAuthDismissNotice')} />
          Dismiss prior authorization requests without the reminder notice
        </label>
        <label className={styles.check}>
          <input type="checkbox" {...register('skipErxConfirmation')} />
          Send eRx refill authorizations without asking me to confirm
        </label>
        <label className={styles.check}>
          <input type="checkbox" {...register('skipSendConfirmation')} />
          Send faxed decisions (authorizations, denials, chart notes, alternatives, phone numbers) without showing me what will be
          sent first
        </label>
        {user.details.mdOfficeId ? (
          <label className={styles.check}>
            <input type="checkbox" aria-describedby="notices-hint" {...register('newRequestNotices')} />
            E-mail me when the pharmacy sends new requests
          </label>
        ) : null}
        {user.details.mdOfficeId ? (
          <p id="notices-hint" className={styles.hint}>
            At most one e-mail every {DIGEST_INTERVAL_MINUTES} minutes, with counts only (no patient names), when your practice
            has chosen e-mail.
          </p>
        ) : null}
        <SubmitRow label="Save preferences" busy={formState.isSubmitting} error={errors.root?.server?.message} />
      </form>
    </section>
  );
}
