import { formatPhoneDisplay, usPhoneSchema } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { FormAlert } from '../../../components/form-alert.tsx';
import { TextField } from '../../../components/text-field.tsx';
import { useResolvePhoneExceptions } from '../api/resolve-phone-exceptions.ts';
import { failure } from '../utils/decision-values.ts';
import styles from './action-needed.module.css';
import { patientName } from './patient-card.tsx';
import type { PanelProps } from './refill-panel.tsx';
import { sendChoice, useSendConfirmation } from './send-confirmation.tsx';

const schema = z.object({ phoneNumber: usPhoneSchema });

export function PhoneExceptionPanel({ entry, user, onDone }: PanelProps) {
  const { confirmSend, dialog: sendDialog } = useSendConfirmation(user);
  const resolve = useResolvePhoneExceptions();
  const form = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { phoneNumber: '' } });
  const error = form.formState.errors.phoneNumber?.message;
  const numbers = entry.patient.phoneNumbers;
  return (
    <section className={styles.panel} aria-labelledby="phone-heading">
      {sendDialog}
      <h2 id="phone-heading">Phone number exception</h2>
      <p>
        The pharmacy could not reach the patient at{' '}
        {numbers.length > 0 ? numbers.map(formatPhoneDisplay).join(' or ') : 'the number on file'}.
      </p>
      <FormAlert message={failure(resolve.error)} />
      <form
        noValidate
        className={styles.fieldset}
        aria-labelledby="phone-heading"
        onSubmit={form.handleSubmit(({ phoneNumber }) =>
          confirmSend({
            title: 'Send this phone number to the pharmacy?',
            confirmLabel: 'Send number',
            summary: (
              <p>
                To the pharmacy: {patientName(entry.patient)} can be reached at {formatPhoneDisplay(phoneNumber)}. It becomes the
                patient’s first number.
              </p>
            ),
            send: (skip) =>
              resolve.mutate(
                {
                  prescriptionIds: [entry.prescription.id],
                  updates: [{ patientId: entry.patient.id, phoneNumber }],
                  ...sendChoice(skip),
                },
                { onSuccess: (result) => onDone('Phone number corrected.', result.undo) },
              ),
          }),
        )}
      >
        <TextField
          label="Correct phone number, as (555) 555-5555"
          type="tel"
          autoComplete="off"
          error={error}
          {...form.register('phoneNumber')}
        />
        <div className={styles.row}>
          <button type="submit" className={styles.button} disabled={resolve.isPending}>
            Save phone number
          </button>
        </div>
      </form>
    </section>
  );
}
