import { apiPaths, authenticatorSetupSchema } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/** POST …/authenticator-app: a new secret to scan or type (not a factor until a code from it is confirmed). */
export const setUpAuthenticator = (userId: string) =>
  api.request(apiPaths.authenticatorApp(userId), { method: 'POST', schema: authenticatorSetupSchema });

export const useSetUpAuthenticator = (userId: string) => useMutation({ mutationFn: () => setUpAuthenticator(userId) });
