import { type AppealAuthRequest, appealAuthRequestSchema, normalizeError } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { FormAlert } from '../../../components/form-alert.tsx';
import styles from '../../../components/form-card.module.css';
import { TextField } from '../../../components/text-field.tsx';
import { type AppealSession, authenticateAppeal, rememberAppeal, rememberCredentials } from '../api/appeal-session.ts';
import { appealQueryKey } from '../api/get-appeal.ts';

/**
 * The prescriber proves who they are with their NPI and the access key the pharmacy sent (prefilled from the
 * link). Nothing else is asked: no portal account is needed.
 */
export function AppealSignIn({
  defaults,
  onOpened,
}: {
  defaults: Partial<AppealAuthRequest>;
  onOpened: (session: AppealSession) => void;
}) {
  const queryClient = useQueryClient();
  const errorId = useId();
  const mutation = useMutation({
    mutationFn: authenticateAppeal,
    onSuccess: (answer, input) => {
      rememberCredentials(input.npi, input.key);
      const session = rememberAppeal(answer);
      queryClient.setQueryData(appealQueryKey(answer.appeal.id), answer.appeal);
      onOpened(session);
    },
  });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<AppealAuthRequest>({
    resolver: zodResolver(appealAuthRequestSchema),
    defaultValues: { npi: defaults.npi ?? '', key: defaults.key ?? '' },
  });
  const failure = mutation.error ? normalizeError(mutation.error).message : null;
  const prefilled = Boolean(defaults.npi && defaults.key);

  return (
    <form
      className={styles.card}
      onSubmit={handleSubmit((values) => mutation.mutate(values))}
      noValidate
      aria-label="Open the appeal"
      aria-describedby={failure ? errorId : undefined}
    >
      <p>
        {prefilled
          ? 'Check your NPI and the access key from the pharmacy, then continue.'
          : 'Enter your NPI and the access key the pharmacy sent you with this appeal.'}
      </p>
      <FormAlert id={errorId} message={failure} />
      <TextField
        label="Prescriber NPI"
        inputMode="numeric"
        autoComplete="off"
        maxLength={10}
        error={errors.npi?.message}
        {...register('npi')}
      />
      <TextField
        label="Access key"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        error={errors.key?.message}
        {...register('key')}
      />
      {/* With a prefilled link the only thing left to do is continue, so that is where focus starts. */}
      {/* biome-ignore lint/a11y/noAutofocus: the single action of a page opened from a link */}
      <button type="submit" className={styles.submit} disabled={mutation.isPending} autoFocus={prefilled}>
        {mutation.isPending ? 'Opening…' : 'Continue'}
      </button>
    </form>
  );
}
