import {
  MFA_METHOD_TEXT,
  MFA_RESEND_MESSAGES,
  type MfaMethod,
  mfaCodeSchema,
  mfaFailureMessage,
  normalizeError,
  PASSKEY_MESSAGES,
  ROUTES,
  recoveryCodeSchema,
  type Tokens,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId, useRef } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { TextField } from '../../../components/text-field.tsx';
import { analytics } from '../../../lib/analytics.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { saveSession, storage } from '../../../lib/storage.ts';
import { passkeyFailure } from '../../../lib/webauthn.ts';
import { useSignInWithPasskey } from '../api/passkey-sign-in.ts';
import { useResendMfa } from '../api/resend-mfa.ts';
import { useVerifyMfa } from '../api/verify-mfa.ts';

/** A six-digit code (mailed or from the app) or a recovery code, as the method takes it. */
const verifySchema = z.discriminatedUnion('method', [
  z.object({ method: z.enum(['email', 'totp']), mfaCode: mfaCodeSchema, rememberMe: z.boolean() }),
  z.object({ method: z.literal('recovery'), mfaCode: recoveryCodeSchema, rememberMe: z.boolean() }),
  // A passkey is no typed code: the browser asks for it when the button is pressed.
  z.object({ method: z.literal('passkey'), mfaCode: z.string(), rememberMe: z.boolean() }),
]);
type VerifyForm = z.infer<typeof verifySchema>;

/**
 * The second step of signing in (spec §4), by the method the account offers first: a mailed code, a code from the
 * authenticator app, or a recovery code (issue 48); the others are a choice away. `onMethod` tells the page, whose
 * text says where the code comes from.
 */
export function VerifyFormCard({
  userToken,
  methods = ['email'],
  method = methods[0] ?? 'email',
  onMethod = () => undefined,
}: {
  userToken: string;
  methods?: readonly MfaMethod[];
  method?: MfaMethod;
  onMethod?: (method: MfaMethod) => void;
}) {
  const navigate = useNavigate();
  const codeMutation = useVerifyMfa();
  const passkeyMutation = useSignInWithPasskey();
  const mutation = method === 'passkey' ? passkeyMutation : codeMutation;
  const passkeyButton = useRef<HTMLButtonElement>(null);
  const resend = useResendMfa();
  const ids = { remember: useId(), error: useId() };
  const {
    register,
    handleSubmit,
    setFocus,
    setValue,
    formState: { errors },
  } = useForm<VerifyForm>({ resolver: zodResolver(verifySchema), defaultValues: { method, mfaCode: '', rememberMe: false } });
  // The one thing to do on this screen is type the code: the cursor waits in its field, also after a change of method.
  useEffect(() => {
    setValue('method', method);
    setValue('mfaCode', '');
    if (method === 'passkey') passkeyButton.current?.focus();
    else setFocus('mfaCode');
  }, [method, setFocus, setValue]);
  const choose = (next: MfaMethod) => {
    codeMutation.reset();
    passkeyMutation.reset();
    // A mailed code is sent when asked for (an account with an app is mailed nothing until then).
    if (next === 'email' && method !== 'email') resend.mutate(userToken, { onSuccess: () => onMethod('email') });
    else onMethod(next);
  };

  const signedIn = (tokens: Tokens) => {
    saveSession(tokens);
    analytics.identify(tokens.userID);
    storage.remove('userToken');
    storage.remove('maskedEmail');
    storage.remove('maskedPhone');
    storage.remove('mfaMethods');
    // Required to have a strong factor and has none (decision 0060): that first, and nothing else until then.
    navigate(tokens.enrolmentRequired ? ROUTES.addSignInFactor : ROUTES.actionNeeded, { replace: true });
  };
  const onSubmit = handleSubmit(({ mfaCode, rememberMe }) =>
    method === 'passkey'
      ? passkeyMutation.mutate({ userToken, rememberMe }, { onSuccess: signedIn })
      : codeMutation.mutate({ userToken, method, mfaCode, rememberMe }, { onSuccess: signedIn }),
  );

  const failure = !mutation.error
    ? null
    : method === 'passkey'
      ? mutation.error instanceof ApiError
        ? PASSKEY_MESSAGES.failed
        : passkeyFailure(mutation.error)
      : mfaFailureMessage(mutation.error instanceof ApiError ? mutation.error.status : 0);
  const recovery = method === 'recovery';
  return (
    <form className={styles.card} onSubmit={onSubmit} noValidate>
      <FormAlert id={ids.error} message={failure} />
      {method === 'passkey' ? null : (
        <TextField
          label={MFA_METHOD_TEXT[method].label}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete={recovery ? 'off' : 'one-time-code'}
          autoCapitalize={recovery ? 'characters' : undefined}
          maxLength={recovery ? 20 : 6}
          error={errors.mfaCode?.message}
          describedBy={failure ? ids.error : undefined}
          {...register('mfaCode')}
        />
      )}
      <div className={styles.check}>
        <input id={ids.remember} type="checkbox" {...register('rememberMe')} />
        <label htmlFor={ids.remember}>Remember this device for 30 days</label>
      </div>
      <button ref={passkeyButton} type="submit" className={styles.submit} disabled={mutation.isPending}>
        {mutation.isPending ? 'Verifying…' : method === 'passkey' ? 'Use your passkey' : 'Verify'}
      </button>
      <div className={styles.links}>
        {method === 'email' ? (
          <button
            type="button"
            className={styles.linkButton}
            onClick={() => resend.mutate(userToken)}
            disabled={resend.isPending}
          >
            {resend.isPending ? 'Sending a new code…' : 'Send a new code'}
          </button>
        ) : null}
        {methods
          .filter((other) => other !== method)
          .map((other) => (
            <button
              key={other}
              type="button"
              className={styles.linkButton}
              onClick={() => choose(other)}
              disabled={other === 'email' && resend.isPending}
            >
              {other === 'email' && resend.isPending ? 'Sending a code…' : MFA_METHOD_TEXT[other].switchTo}
            </button>
          ))}
        <p role="status">
          {resend.isSuccess ? MFA_RESEND_MESSAGES.sent : null}
          {resend.error ? normalizeError(resend.error, MFA_RESEND_MESSAGES.failed).message : null}
        </p>
        <Link to={ROUTES.login}>Back to sign in</Link>
      </div>
    </form>
  );
}
