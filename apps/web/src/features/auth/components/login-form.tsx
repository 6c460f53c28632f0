import { emailSchema, normalizeError, passwordSchema, ROUTES } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { TextField } from '../../../components/text-field.tsx';
import { useLogin } from '../api/login.ts';
import { applyLoginAnswer } from '../utils/apply-login-answer.ts';

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
        const next = applyLoginAnswer(answer, from);
        if (next.kind === 'external') window.location.assign(next.url);
        else navigate(next.to, { replace: next.to !== ROUTES.loginVerify });
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
