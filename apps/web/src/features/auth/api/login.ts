import { apiPaths, DASHBOARD, type LoginResponse } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';

export interface LoginInput {
  email: string;
  password: string;
}

/** POST /login of the auth service; the email is sent as username too (spec §3). */
export function login({ email, password }: LoginInput): Promise<LoginResponse> {
  const rememberMeToken = storage.get('rememberMeToken') ?? undefined;
  return api.request(apiPaths.login, {
    method: 'POST',
    auth: false,
    body: { email, username: email, password, dashboard: DASHBOARD, rememberMeToken },
    schema: () => import('./sign-in-schemas.ts').then((m) => m.loginResponseSchema),
  });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
