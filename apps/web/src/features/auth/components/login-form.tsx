import { emailSchema, normalizeError, passwordSchema, ROUTES } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { analytics } from '../../../lib/analytics.ts';
import { saveSession, storage } from '../../../lib/storage.ts';
import { useLogin } from '../api/login.ts';
import styles from './login-form.module.css';

const loginFormSchema = z.object({ email: emailSchema, password: passwordSchema });
type LoginForm = z.infer<typeof loginFormSchema>;

export function LoginFormCard() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const mutation = useLogin();
  const errorId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({ resolver: zodResolver(loginFormSchema), mode: 'onSubmit' });

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(values, {
      onSuccess: (answer) => {
        if ('jwtToken' in answer) {
          saveSession(answer.jwtToken);
          analytics.identify(answer.jwtToken.userID);
          navigate(from && from !== ROUTES.login ? from : ROUTES.actionNeeded, { replace: true });
        } else if ('mfaResponse' in answer) {
          storage.set('userToken', answer.mfaResponse.userToken);
          storage.set('maskedEmail', answer.mfaResponse.maskedEmail);
          storage.set('maskedPhone', answer.mfaResponse.maskedPhone);
          navigate(ROUTES.loginVerify);
        } else {
          window.location.assign(answer.redirectionUrl);
        }
      },
    }),
  );

  const failure = mutation.error ? normalizeError(mutation.error, 'Could not sign in. Please try again.').message : null;

  return (
    <form className={styles.card} onSubmit={onSubmit} noValidate aria-describedby={failure ? errorId : undefined}>
      <FormAlert id={errorId} message={failure} />
      <TextField label="Email" type="email" autoComplete="username" error={errors.email?.message} {...register('email')} />
      <TextField
        label="Password"
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        {...register('password')}
      />
      <button type="submit" className={styles.submit} disabled={mutation.isPending}>
        {mutation.isPending ? 'Signing in…' : 'Sign in'}
      </button>
      <p className={styles.links}>
        <Link to={ROUTES.passwordResetRequest}>Forgot your password?</Link>
      </p>
    </form>
  );
}
