import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import { failureText } from '../../../lib/form-errors.ts';
import { usePracticeSignInPolicy, useSetPracticeSignInPolicy } from '../api/practice-sign-in-policy.ts';

/**
 * Whether the practice requires a passkey or an authenticator app of its people (issue 48, decision 0060): its
 * prescribers change it; everyone else reads it.
 */
export function PracticeSignInPolicy({ practiceId }: { practiceId: string }) {
  const policy = usePracticeSignInPolicy(practiceId);
  const save = useSetPracticeSignInPolicy(practiceId);
  const data = policy.data;
  const state = data?.requiredByProvider
    ? 'Your provider requires a passkey or an authenticator app of everyone.'
    : data?.strongFactorRequired
      ? 'This practice requires a passkey or an authenticator app of its people.'
      : 'A passkey or an authenticator app is optional here.';
  return (
    <section aria-labelledby="practice-sign-in-title">
      <h3 id="practice-sign-in-title">Two-step sign-in</h3>
      {policy.isError ? (
        <p role="alert">Could not load the sign-in policy. Please try again.</p>
      ) : !data ? (
        <p role="status">Loading…</p>
      ) : (
        <>
          <p>{state}</p>
          {data.mayChange && !data.requiredByProvider ? (
            <p>
              <button
                type="button"
                className={controls.secondary}
                disabled={save.isPending}
                onClick={() =>
                  save.mutate(!data.strongFactorRequired, {
                    onSuccess: (saved) =>
                      toast.success(
                        saved.strongFactorRequired
                          ? 'Saved. Everyone here must have a passkey or an authenticator app; those who have none add one at their next sign-in.'
                          : 'Saved. A passkey or an authenticator app is optional again.',
                      ),
                  })
                }
              >
                {data.strongFactorRequired ? 'Stop requiring a passkey or app' : 'Require a passkey or an authenticator app'}
              </button>
            </p>
          ) : null}
          <FormAlert message={save.error ? failureText(save.error) : null} />
        </>
      )}
    </section>
  );
}
