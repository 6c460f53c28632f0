import { type AddressInput, addressVerificationSchema, apiPaths } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../api-client.ts';
import { withFailureMessage } from '../service-error.ts';
import { readSession } from '../storage.ts';

/** POST /api/mdo/v1/users/{id}/verify-address: does the ZIP exist and match the city and state? */
export const verifyAddress = (address: AddressInput) =>
  withFailureMessage(
    'Failed to verify address',
    api.request(apiPaths.verifyAddress(readSession()?.userId ?? ''), {
      method: 'POST',
      body: address,
      schema: addressVerificationSchema,
    }),
  );

export const useVerifyAddress = () => useMutation({ mutationFn: verifyAddress });
