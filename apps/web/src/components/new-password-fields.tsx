/**
 * A new password typed twice, with the rule said beside it: the same pair in every password form (the mailed reset and
 * the signed-in change), so the two cannot drift apart.
 */
import type { UseFormRegisterReturn } from 'react-hook-form';
import { TextField } from './text-field.tsx';

export const NEW_PASSWORD_HINT = 'At least 12 characters. A few unrelated words make a strong password that is easy to remember.';

export function NewPasswordFields({
  newPassword,
  confirm,
  errors,
}: {
  newPassword: UseFormRegisterReturn<'newPassword'>;
  confirm: UseFormRegisterReturn<'confirm'>;
  errors: { newPassword?: string | undefined; confirm?: string | undefined };
}) {
  return (
    <>
      <TextField label="New password" type="password" autoComplete="new-password" error={errors.newPassword} {...newPassword} />
      <TextField
        label="Repeat the new password"
        type="password"
        autoComplete="new-password"
        error={errors.confirm}
        {...confirm}
      />
      <p>{NEW_PASSWORD_HINT}</p>
    </>
  );
}
