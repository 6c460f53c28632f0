import { type Account, type AccountUpdate, accountUpdateSchema, USER_ROLE_LABELS, USER_ROLE_VALUES } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import controls from '../../../components/controls.module.css';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { applyServerFieldErrors, failureText } from '../../../lib/form-errors.ts';
import { useResetTwoStep } from '../api/reset-two-step.ts';
import { useUpdateAccount } from '../api/update-account.ts';
import styles from './manage-accounts.module.css';

/** One account: role, two-step verification, disabled; and a reset of its two-step verification. */
export function AccountDialog({ account, onClose }: { account: Account; onClose: () => void }) {
  const formId = useId();
  const update = useUpdateAccount();
  const resetTwoStep = useResetTwoStep();
  const [problem, setProblem] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<AccountUpdate>({
    resolver: zodResolver(accountUpdateSchema),
    defaultValues: { role: account.role, mfaEnabled: account.mfaEnabled, disabled: account.disabled },
  });
  const onSubmit = handleSubmit(async (input) => {
    setProblem(null);
    try {
      await update.mutateAsync({ id: account.id, input });
      toast.success(`${account.userName} updated.`);
      onClose();
    } catch (error) {
      if (!applyServerFieldErrors(error, setError)) setProblem(failureText(error));
    }
  });
  return (
    <Dialog
      open
      title={`Account of ${account.userName}`}
      onClose={onClose}
      actions={
        <>
          <button type="submit" form={formId} className={controls.primary} disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Saving…' : 'Save'}
          </button>
          <button type="button" className={controls.secondary} onClick={onClose}>
            Cancel
          </button>
        </>
      }
    >
      <form id={formId} className={styles.stack} onSubmit={onSubmit} noValidate>
        <p>{account.email}</p>
        <SelectField
          label="Role"
          options={USER_ROLE_VALUES.map((r) => ({ value: r, label: USER_ROLE_LABELS[r] }))}
          error={formState.errors.role?.message}
          {...register('role')}
        />
        <label className={styles.check}>
          <input type="checkbox" {...register('mfaEnabled')} />
          Two-step verification (a code by e-mail at sign-in)
        </label>
        <label className={styles.check}>
          <input type="checkbox" {...register('disabled')} />
          Disabled (cannot sign in; open sessions end now)
        </label>
        <button
          type="button"
          className={controls.secondary}
          disabled={resetTwoStep.isPending}
          onClick={async () => {
            setProblem(null);
            try {
              await resetTwoStep.mutateAsync(account.id);
              toast.success(`Two-step verification of ${account.userName} reset: remembered devices forgotten.`);
            } catch (error) {
              setProblem(failureText(error));
            }
          }}
        >
          Reset two-step verification
        </button>
        <FormAlert message={problem} />
      </form>
    </Dialog>
  );
}
