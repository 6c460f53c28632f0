import {
  type AccountInvite,
  type AccountInviteFormValues,
  accountInviteSchema,
  USER_ROLE_LABELS,
  USER_ROLE_VALUES,
} from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import { SelectField } from '../../../components/select-field.tsx';
import { SubmitRow } from '../../../components/submit-row.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useMdOfficesSearch } from '../../../lib/practices/search-md-offices.ts';
import { useInviteAccount } from '../api/invite-account.ts';
import styles from './manage-accounts.module.css';

const EMPTY: AccountInviteFormValues = { userName: '', email: '', role: 'mdo.user', mdOfficeId: '' };
/** The practice picker lists this many practices by name. */
const PRACTICE_CHOICES = 100;

/** Invite someone: they receive an e-mail with a link to choose their password. */
export function InviteForm() {
  const invite = useInviteAccount();
  const practices = useMdOfficesSearch('', 1, PRACTICE_CHOICES);
  const { register, handleSubmit, formState, setError, reset, watch } = useForm<AccountInviteFormValues, unknown, AccountInvite>({
    resolver: zodResolver(accountInviteSchema),
    defaultValues: EMPTY,
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit(async (input) => {
    try {
      const created = await invite.mutateAsync(input);
      reset(EMPTY);
      toast.success(`Invitation sent to ${created.email}.`);
    } catch (error) {
      showSaveFailure(error, setError);
    }
  });
  return (
    <section aria-labelledby="invite-title" className={styles.panel}>
      <h2 id="invite-title">Invite a user</h2>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField label="Full name" autoComplete="off" error={errors.userName?.message} {...register('userName')} />
        <TextField label="Email" type="email" autoComplete="off" error={errors.email?.message} {...register('email')} />
        <SelectField
          label="Role"
          options={USER_ROLE_VALUES.map((r) => ({ value: r, label: USER_ROLE_LABELS[r] }))}
          error={errors.role?.message}
          {...register('role')}
        />
        {watch('role') === 'mdo.user' ? (
          <SelectField
            label="Practice"
            emptyLabel={practices.isPending ? 'Loading practices…' : 'Choose a practice'}
            options={(practices.data?.records ?? []).map((o) => ({ value: o.id, label: o.name }))}
            error={errors.mdOfficeId?.message}
            {...register('mdOfficeId')}
          />
        ) : null}
        <SubmitRow label="Send invitation" busy={formState.isSubmitting} error={errors.root?.server?.message} />
      </form>
    </section>
  );
}
