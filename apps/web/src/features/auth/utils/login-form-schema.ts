/**
 * The sign-in form's rules: the contract's named field schemas, checked through zod. Loaded when the form is
 * first focused or sent (components/login-form.tsx), not with the page (issue 21; decision 0043). The resolver is
 * written here rather than taken from @hookform/resolvers, which would pull React into this chunk and split the
 * first load's shared code into one more file.
 */
import { emailSchema, passwordSchema } from '@hcp/contract';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { z } from 'zod';

export const loginFormSchema = z.object({ email: emailSchema, password: passwordSchema });
export type LoginForm = z.infer<typeof loginFormSchema>;

/** The first problem of each field, as react-hook-form expects it. */
export const loginFormResolver: Resolver<LoginForm> = (values) => {
  const parsed = loginFormSchema.safeParse(values);
  if (parsed.success) return { values: parsed.data, errors: {} };
  const errors: FieldErrors<LoginForm> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) {
      errors[field] = { type: issue.code, message: issue.message };
    }
  }
  return { values: {}, errors };
};
