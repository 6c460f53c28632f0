/**
 * The sign-in form's rules: the contract's named field schemas, checked through zod. Loaded when the form is
 * first focused or sent (components/login-form.tsx), not with the page (issue 21; decision 0043).
 */
import { emailSchema, passwordSchema } from '@hcp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';

export const loginFormSchema = z.object({ email: emailSchema, password: passwordSchema });
export type LoginForm = z.infer<typeof loginFormSchema>;
export const loginFormResolver = zodResolver(loginFormSchema);
