import type { TenantSignInPolicy } from '@hcp/contract';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { FormAlert } from '../../../components/form-alert.tsx';
import radios from '../../../components/radio-group.module.css';
import { failureText } from '../../../lib/form-errors.ts';
import { useSetSignInPolicy, useSignInPolicy } from '../api/sign-in-policy.ts';

function PolicyForm({ policy }: { policy: TenantSignInPolicy }) {
  const save = useSetSignInPolicy();
  const { register, handleSubmit, formState, reset } = useForm<TenantSignInPolicy>({ defaultValues: policy });
  const onSubmit = handleSubmit((values) =>
    save.mutate(values, {
      onSuccess: (saved) => {
        reset(saved);
        toast.success(
          saved.strongFactorRequired
            ? 'Saved. Everyone must have a passkey or an authenticator app; those who have none add one at their next sign-in.'
            : 'Saved.',
        );
      },
    }),
  );
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="sign-in-policy-title">
      <fieldset className={radios.group}>
        <legend>Two-step sign-in for every user</legend>
        <label className={radios.option}>
          <input type="checkbox" {...register('strongFactorRequired')} /> Require a passkey or an authenticator app
        </label>
        <label className={radios.option}>
          <input type="checkbox" {...register('emailCodesAllowed')} /> Allow a code by e-mail instead (for someone without their
          phone or key)
        </label>
      </fieldset>
      <p>
        <button type="submit" className={controls.primary} disabled={save.isPending || !formState.isDirty}>
          {save.isPending ? 'Saving…' : 'Save sign-in policy'}
        </button>
      </p>
      <FormAlert message={save.error ? failureText(save.error) : null} />
    </form>
  );
}

/**
 * The tenant's sign-in policy (issue 48, decision 0060), for the provider's admin: require a strong factor of every
 * user, and whether a mailed code may stand in for one.
 */
export function SignInPolicySection() {
  const policy = useSignInPolicy();
  return (
    <section aria-labelledby="sign-in-policy-title">
      <h2 id="sign-in-policy-title">Sign-in policy</h2>
      {policy.isError ? (
        <p role="alert">Could not load the sign-in policy. Please try again.</p>
      ) : policy.data ? (
        <PolicyForm policy={policy.data} />
      ) : (
        <p role="status">Loading…</p>
      )}
    </section>
  );
}
