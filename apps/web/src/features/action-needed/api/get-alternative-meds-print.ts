import { apiPaths } from '@hcp/contract';
import { api } from '../../../lib/api-client.ts';

/** GET …/prescriptions/{id}/alternative-meds-request-print: printable HTML for a new window (spec §2 helper). */
export const getAlternativeMedsPrint = (prescriptionId: string) =>
  api.request(apiPaths.alternativeMedsRequestPrint(prescriptionId), { as: 'text' }) as Promise<string>;
