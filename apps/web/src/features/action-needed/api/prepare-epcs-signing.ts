import { epcsApiPaths, epcsSigningSchema, type PrepareEpcsRefill } from '@hcp/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';

/**
 * POST …/{id}/epcs-signing (issue 48): what would be signed for a controlled substance's refill — the content, the
 * legal text and the factors the prescriber can sign with — after every rule of who may sign it. Nothing is sent.
 */
export const prepareEpcsSigning = ({ prescriptionId, ...body }: PrepareEpcsRefill & { prescriptionId: string }) =>
  api.request(epcsApiPaths.epcsSigning(prescriptionId), { method: 'POST', body, schema: epcsSigningSchema });

export const usePrepareEpcsSigning = () => useMutation({ mutationFn: prepareEpcsSigning });
