import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from '../../../components/text-field.tsx';

/** Phone, fax and email of a practice or a person (fax and email optional; the phone label says whether it is). */
export function ContactFields({
  phoneLabel,
  register,
  errors,
}: {
  phoneLabel: string;
  register: (name: 'phoneNumber' | 'faxNumber' | 'email') => UseFormRegisterReturn;
  errors: { phoneNumber?: string | undefined; faxNumber?: string | undefined; email?: string | undefined };
}) {
  return (
    <>
      <TextField
        label={phoneLabel}
        type="tel"
        placeholder="(555) 555-5555"
        error={errors.phoneNumber}
        {...register('phoneNumber')}
      />
      <TextField
        label="Fax (optional)"
        type="tel"
        placeholder="(555) 555-5555"
        error={errors.faxNumber}
        {...register('faxNumber')}
      />
      <TextField label="Email (optional)" type="email" error={errors.email} {...register('email')} />
    </>
  );
}
