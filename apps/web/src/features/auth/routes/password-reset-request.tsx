import { emailSchema, normalizeError, PASSWORD_RESET_MESSAGES, ROUTES } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { Page } from '../../../components/page.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useRequestPasswordReset } from '../api/password-reset.ts';

const schema = z.object({ email: emailSchema });

export default function PasswordResetRequestRoute() {
  const mutation = useRequestPasswordReset();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema) });
  return (
    <Page title="Reset your password" narrow>
      {mutation.isSuccess ? (
        <div className={styles.card}>
          <p role="status">{PASSWORD_RESET_MESSAGES.requested}</p>
          <p className={styles.links}>
            <Link to={ROUTES.login}>Back to sign in</Link>
          </p>
        </div>
      ) : (
        <form className={styles.card} noValidate onSubmit={handleSubmit(({ email }) => mutation.mutate(email))}>
          <p>Enter the e-mail of your account. We will send you a link to choose a new password.</p>
          <FormAlert message={mutation.error ? normalizeError(mutation.error).message : null} />
          <TextField label="Email" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
          <button type="submit" className={styles.submit} disabled={mutation.isPending}>
            {mutation.isPending ? 'Sending…' : 'Send reset link'}
          </button>
          <p className={styles.links}>
            <Link to={ROUTES.login}>Back to sign in</Link>
          </p>
        </form>
      )}
    </Page>
  );
}
