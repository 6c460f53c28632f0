import { apiPaths, DASHBOARD, type LoginResponse, loginResponseSchema } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';
import { storage } from '../../../lib/storage.ts';

/** POST /auth/mdo/google/{token}: Google's ID token in the path; answers like the password login. */
export function googleLogin(idToken: string): Promise<LoginResponse> {
  const rememberMeToken = storage.get('rememberMeToken') ?? undefined;
  return api.request(apiPaths.googleLogin(idToken), {
    method: 'POST',
    auth: false,
    body: { dashboard: DASHBOARD, rememberMeToken },
    schema: loginResponseSchema,
  });
}
