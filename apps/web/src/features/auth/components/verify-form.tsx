import { MFA_RESEND_MESSAGES, mfaCodeSchema, mfaFailureMessage, normalizeError, ROUTES } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { TextField } from '../../../components/text-field.tsx';
import { analytics } from '../../../lib/analytics.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { saveSession, storage } from '../../../lib/storage.ts';
import { useResendMfa } from '../api/resend-mfa.ts';
import { useVerifyMfa } from '../api/verify-mfa.ts';

const verifySchema = z.object({
  mfaCode: mfaCodeSchema,
  rememberMe: z.boolean(),
});
type VerifyForm = z.infer<typeof verifySchema>;

export function VerifyFormCard({ userToken }: { userToken: string }) {
  const navigate = useNavigate();
  const mutation = useVerifyMfa();
  const resend = useResendMfa();
  const ids = { remember: useId(), error: useId() };
  const {
    register,
    handleSubmit,
    setFocus,
    formState: { errors },
  } = useForm<VerifyForm>({ resolver: zodResolver(verifySchema), defaultValues: { mfaCode: '', rememberMe: false } });
  // The one thing to do on this screen is type the code: the cursor waits in its field.
  useEffect(() => setFocus('mfaCode'), [setFocus]);

  const onSubmit = handleSubmit(({ mfaCode, rememberMe }) =>
    mutation.mutate(
      { userToken, mfaCode, rememberMe },
      {
        onSuccess: (tokens) => {
          saveSession(tokens);
          analytics.identify(tokens.userID);
          storage.remove('userToken');
          storage.remove('maskedEmail');
          storage.remove('maskedPhone');
          navigate(ROUTES.actionNeeded, { replace: true });
        },
      },
    ),
  );

  const failure = mutation.error ? mfaFailureMessage(mutation.error instanceof ApiError ? mutation.error.status : 0) : null;
  return (
    <form className={styles.card} onSubmit={onSubmit} noValidate>
      <FormAlert id={ids.error} message={failure} />
      <TextField
        label="Verification code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        error={errors.mfaCode?.message}
        describedBy={failure ? ids.error : undefined}
        {...register('mfaCode')}
      />
      <div className={styles.check}>
        <input id={ids.remember} type="checkbox" {...register('rememberMe')} />
        <label htmlFor={ids.remember}>Remember this device for 30 days</label>
      </div>
      <button type="submit" className={styles.submit} disabled={mutation.isPending}>
        {mutation.isPending ? 'Verifying…' : 'Verify'}
      </button>
      <div className={styles.links}>
        <button type="button" className={styles.linkButton} onClick={() => resend.mutate(userToken)} disabled={resend.isPending}>
          {resend.isPending ? 'Sending a new code…' : 'Send a new code'}
        </button>
        <p role="status">
          {resend.isSuccess ? MFA_RESEND_MESSAGES.sent : null}
          {resend.error ? normalizeError(resend.error, MFA_RESEND_MESSAGES.failed).message : null}
        </p>
        <Link to={ROUTES.login}>Back to sign in</Link>
      </div>
    </form>
  );
}
