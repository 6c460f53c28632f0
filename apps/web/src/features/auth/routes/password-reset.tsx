import { newPasswordRepeated, newPasswordSchema, normalizeError, PASSWORD_RESET_MESSAGES, ROUTES } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, Navigate, useParams } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { FullPageLoader } from '../../../components/full-page-loader.tsx';
import { NewPasswordFields } from '../../../components/new-password-fields.tsx';
import { Page } from '../../../components/page.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { usePasswordToken, useUpdatePasswordByToken } from '../api/password-reset.ts';

const schema = z
  .object({ newPassword: newPasswordSchema, confirm: z.string() })
  .refine(newPasswordRepeated.matches, newPasswordRepeated.issue);

function ResetForm({ token }: { token: string }) {
  const check = usePasswordToken(token);
  const mutation = useUpdatePasswordByToken();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema) });

  const gone = (error: unknown) => error instanceof ApiError && error.status === 410;
  if (check.isPending) return <FullPageLoader label="Checking your reset link…" />;
  if (gone(check.error) || gone(mutation.error)) return <Navigate to={ROUTES.passwordResetExpired} replace />;
  if (mutation.isSuccess) {
    return (
      <div className={styles.card}>
        <p role="status">{PASSWORD_RESET_MESSAGES.changed}</p>
        <p className={styles.links}>
          <Link to={ROUTES.login}>Sign in</Link>
        </p>
      </div>
    );
  }
  const failure = check.error ?? mutation.error;
  return (
    <form
      className={styles.card}
      noValidate
      onSubmit={handleSubmit(({ newPassword }) => mutation.mutate({ token, password: newPassword }))}
    >
      <FormAlert message={failure ? normalizeError(failure).message : null} />
      <NewPasswordFields
        newPassword={register('newPassword')}
        confirm={register('confirm')}
        errors={{ newPassword: errors.newPassword?.message, confirm: errors.confirm?.message }}
      />
      <button type="submit" className={styles.submit} disabled={mutation.isPending}>
        {mutation.isPending ? 'Saving…' : 'Save new password'}
      </button>
    </form>
  );
}

export default function PasswordResetRoute() {
  const { token } = useParams();
  return (
    <Page title="Choose a new password" narrow>
      {token ? <ResetForm token={token} /> : <Navigate to={ROUTES.passwordResetRequest} replace />}
    </Page>
  );
}
