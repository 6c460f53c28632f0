import { formatTime, type PracticeWorkload, SUPPORT_ACCESS_LIMITS, supportAccessOpenSchema } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { toast } from 'sonner';
import type { z } from 'zod';
import { Dialog } from '../../../components/dialog.tsx';
import { FormAlert } from '../../../components/form-alert.tsx';
import { SelectField } from '../../../components/select-field.tsx';
import { focusWhenReady } from '../../../lib/focus.ts';
import { showSaveFailure } from '../../../lib/form-errors.ts';
import { useOpenSupportAccess } from '../../../lib/support-access/open-support-access.ts';
import styles from './action-needed.module.css';

const formSchema = supportAccessOpenSchema.omit({ mdOfficeId: true });
type FormValues = z.input<typeof formSchema>;
const DURATIONS = [15, 30, SUPPORT_ACCESS_LIMITS.maxMinutes].map((m) => ({ value: String(m), label: `${m} minutes` }));

/** Break-the-glass: a reason and a duration (at most an hour) before one practice's patients are shown. */
export function SupportAccessDialog({
  userId,
  practice,
  onClose,
}: {
  userId: string;
  practice: PracticeWorkload | null;
  onClose: () => void;
}) {
  const reasonId = useId();
  const formId = useId();
  const open = useOpenSupportAccess(userId);
  const form = useForm<FormValues, unknown, z.output<typeof formSchema>>({
    resolver: zodResolver(formSchema),
    defaultValues: { reason: '', minutes: SUPPORT_ACCESS_LIMITS.maxMinutes },
  });
  const reasonError = form.formState.errors.reason?.message;
  const close = () => {
    form.reset();
    onClose();
  };
  return (
    <Dialog
      open={practice !== null}
      title={practice ? `Support access to ${practice.name}` : 'Support access'}
      onClose={close}
      actions={
        <>
          <button type="button" className={styles.secondary} onClick={close}>
            Cancel
          </button>
          <button type="submit" form={formId} className={styles.button} disabled={open.isPending}>
            Open read-only access
          </button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={form.handleSubmit((values) => {
          if (!practice) return;
          // mutateAsync, not mutate's callbacks: the list this dialog belongs to is replaced by the practice's patients
          // as the refetch lands, and callbacks of an unmounted caller never run — the opening was never said (issue 47).
          open.mutateAsync({ ...values, mdOfficeId: practice.mdOfficeId }).then(
            (grant) => {
              // Said in full: what is open, that it is read-only, and until when.
              toast.success(`Support access to ${practice.name} is open, read-only, until ${formatTime(grant.expiresAt)}.`);
              // The dialog gives focus back to its opener, but the practices' list it is in is replaced by the
              // practice's patients as React draws the refetched answer, sooner or later: focus then goes to the
              // screen's heading, whichever comes first (a weak return to the opener gives way to this request).
              focusWhenReady(() => null);
              close();
            },
            (error: unknown) => showSaveFailure(error, form.setError),
          );
        })}
      >
        <p>
          You will see this practice’s patients and requests, read-only. The practice’s own people act on them. The practice sees
          that you opened it, when and why.
        </p>
        <div className={styles.label}>
          <label htmlFor={reasonId}>Why do you need access?</label>
          <textarea
            id={reasonId}
            rows={3}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={reasonError ? `${reasonId}-error` : undefined}
            {...form.register('reason')}
          />
          {reasonError ? (
            <span id={`${reasonId}-error`} className={styles.fieldError}>
              {reasonError}
            </span>
          ) : null}
        </div>
        <SelectField label="For" options={DURATIONS} {...form.register('minutes')} />
        <FormAlert message={form.formState.errors.root?.server?.message} />
      </form>
    </Dialog>
  );
}
