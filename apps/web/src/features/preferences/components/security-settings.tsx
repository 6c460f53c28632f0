import { newPasswordRepeated, newPasswordSchema, normalizeError, passwordSchema } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useChangePassword } from '../api/change-password.ts';
import { useForgetRememberedDevices, useRememberedDevices } from '../api/remembered-devices.ts';
import { SignInFactorsSection } from './sign-in-factors.tsx';

const changeSchema = z
  .object({ currentPassword: passwordSchema, newPassword: newPasswordSchema, confirm: z.string() })
  .refine(newPasswordRepeated.matches, newPasswordRepeated.issue);
type ChangeForm = z.infer<typeof changeSchema>;

function ChangePasswordForm({ userId }: { userId: string }) {
  const mutation = useChangePassword(userId);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<ChangeForm>({ resolver: zodResolver(changeSchema) });

  const onSubmit = handleSubmit(({ currentPassword, newPassword }) =>
    mutation.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => reset(),
        onError: (error) => {
          // The server names the field it refused (a wrong current password): show it at the field.
          const field = error instanceof ApiError ? normalizeError(error).details?.[0] : undefined;
          if (field?.path === 'body.currentPassword') setError('currentPassword', { message: field.message });
        },
      },
    ),
  );
  const fieldError = mutation.error instanceof ApiError && normalizeError(mutation.error).details?.length;
  return (
    <form className={styles.card} onSubmit={onSubmit} noValidate aria-labelledby="change-password-heading">
      <h3 id="change-password-heading">Change password</h3>
      <FormAlert message={mutation.error && !fieldError ? normalizeError(mutation.error).message : null} />
      {mutation.isSuccess ? <p role="status">Your password has been changed. Your other sessions were signed out.</p> : null}
      <TextField
        label="Current password"
        type="password"
        autoComplete="current-password"
        error={errors.currentPassword?.message}
        {...register('currentPassword')}
      />
      <NewPasswordFields
        newPassword={register('newPassword')}
        confirm={register('confirm')}
        errors={{ newPassword: errors.newPassword?.message, confirm: errors.confirm?.message }}
      />
      <button type="submit" className={styles.submit} disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving…' : 'Change password'}
      </button>
    </form>
  );
}

function RememberedDevices({ userId }: { userId: string }) {
  const devices = useRememberedDevices(userId);
  const forget = useForgetRememberedDevices(userId);
  const count = devices.data?.count;
  return (
    <section className={styles.card} aria-labelledby="devices-heading">
      <h3 id="devices-heading">Remembered devices</h3>
      <p aria-busy={devices.isPending}>
        {devices.isPending
          ? 'Loading…'
          : devices.isError
            ? 'Could not load your remembered devices.'
            : count === 0
              ? 'No device skips the verification code.'
              : `${count} ${count === 1 ? 'device skips' : 'devices skip'} the verification code for up to 30 days.`}
      </p>
      <button type="button" className={styles.submit} onClick={() => forget.mutate()} disabled={forget.isPending || count === 0}>
        {forget.isPending ? 'Forgetting…' : 'Forget remembered devices'}
      </button>
      <p role="status">
        {forget.isSuccess ? 'Done. Every device will ask for a verification code at its next sign-in.' : null}
        {forget.error ? normalizeError(forget.error).message : null}
      </p>
    </section>
  );
}

/** Sign-in and security settings of the signed-in user (change password, two-step sign-in, remembered devices). */
export function SecuritySettings({ userId }: { userId: string }) {
  return (
    <section aria-labelledby="security-heading">
      <h2 id="security-heading">Sign-in and security</h2>
      <ChangePasswordForm userId={userId} />
      <SignInFactorsSection userId={userId} />
      <RememberedDevices userId={userId} />
    </section>
  );
}
