import { type LoginResponse, normalizeError, ROUTES } from '@hcp/contract';
import { useId } from 'react';
import { type Resolver, useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { TextField } from '../../../components/text-field.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { passkeyFailure, passkeysSupported } from '../../../lib/webauthn.ts';
import { useLogin } from '../api/login.ts';
import { useLoginWithPasskey } from '../api/passkey-login.ts';
import { applyLoginAnswer } from '../utils/apply-login-answer.ts';
import type { LoginForm } from '../utils/login-form-schema.ts';

/**
 * The form's rules and the login answer's schema load when the form is first used, not with the page: zod and
 * the schemas were a third of the sign-in page's script (issue 21). By the time an address is typed they are in.
 */
const loadRules = () => import('../utils/login-form-schema.ts');
const warmUp = () => {
  // Only a head start: a module that does not arrive is dealt with where it is needed.
  loadRules().catch(() => {});
  import('../api/sign-in-schemas.ts').catch(() => {});
};
/** The form's resolver over a loader of its rules (a parameter, so the rules not arriving can be tested). */
export const resolverLoading =
  (load: () => Promise<{ loginFormResolver: Resolver<LoginForm> }>): Resolver<LoginForm> =>
  async (values, context, options) => {
    const rules = await load().catch(() => null);
    // The rules did not arrive (the connection dropped): the server checks the same rules and says what is wrong.
    if (!rules) return { values, errors: {} };
    return rules.loginFormResolver(values, context, options);
  };
const resolver = resolverLoading(loadRules);

export function LoginFormCard() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  const mutation = useLogin();
  const passkey = useLoginWithPasskey();
  const errorId = useId();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({ resolver, mode: 'onSubmit' });

  const signedIn = (answer: LoginResponse) => {
    const next = applyLoginAnswer(answer, from);
    if (next.kind === 'external') window.location.assign(next.url);
    else navigate(next.to, { replace: next.to !== ROUTES.loginVerify });
  };
  const onSubmit = handleSubmit((values) => {
    passkey.reset();
    mutation.mutate(values, { onSuccess: signedIn });
  });

  const failure = mutation.error
    ? normalizeError(mutation.error, 'Could not sign in. Please try again.').message
    : passkey.error
      ? passkey.error instanceof ApiError
        ? normalizeError(passkey.error).message
        : passkeyFailure(passkey.error)
      : null;

  return (
    <form
      className={styles.card}
      onSubmit={onSubmit}
      onFocus={warmUp}
      onPointerDown={warmUp}
      noValidate
      aria-describedby={failure ? errorId : undefined}
    >
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
      {/* Issue 48: a passkey instead of the e-mail and password, where the browser can use one. */}
      {passkeysSupported() ? (
        <button
          type="button"
          className={controls.secondary}
          disabled={passkey.isPending}
          onClick={() => {
            mutation.reset();
            passkey.mutate(undefined, { onSuccess: signedIn });
          }}
        >
          {passkey.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
        </button>
      ) : null}
      <p className={styles.links}>
        <Link to={ROUTES.passwordResetRequest}>Forgot your password?</Link>
      </p>
    </form>
  );
}
