/**
 * The API paths of EPCS and of the sign-in policy (issue 48, decisions 0059 and 0060): apart from `apiPaths`, which
 * the first screen's script carries, so that only the screens that use them download them (issue 21's budget).
 */
import { API_BASE } from './routes.ts';

const enc = encodeURIComponent;
const user = (userId: string) => `${API_BASE}/v1/users/${enc(userId)}`;

export const epcsApiPaths = {
  // sign-in policy (decision 0060)
  tenantSignInPolicy: `${API_BASE}/v1/sign-in-policy`,
  practiceSignInPolicy: (practiceId: string) => `${API_BASE}/v1/practices/${enc(practiceId)}/sign-in-policy`,
  // EPCS (decision 0059)
  epcs: (userId: string) => `${user(userId)}/epcs`,
  deaRegistrations: (userId: string) => `${user(userId)}/epcs/registrations`,
  removeDeaRegistration: (userId: string, id: string) => `${user(userId)}/epcs/registrations/${enc(id)}/remove`,
  stepUpOptions: (userId: string) => `${user(userId)}/epcs/step-up-options`,
  epcsChanges: `${API_BASE}/v1/epcs-changes`,
  approveEpcsChange: (id: string) => `${API_BASE}/v1/epcs-changes/${enc(id)}/approve`,
  declineEpcsChange: (id: string) => `${API_BASE}/v1/epcs-changes/${enc(id)}/decline`,
  epcsReport: (practiceId: string, day: string) => `${API_BASE}/v1/practices/${enc(practiceId)}/epcs-report?day=${enc(day)}`,
  epcsSigning: (prescriptionId: string) => `${API_BASE}/v1/prescriptions/${enc(prescriptionId)}/epcs-signing`,
  signEpcs: (signingId: string) => `${API_BASE}/v1/epcs-signings/${enc(signingId)}/sign`,
  prescribeEpcsSigning: (userId: string) => `${user(userId)}/prescriptions/epcs-signing`,
  signEpcsPrescription: (signingId: string) => `${API_BASE}/v1/epcs-signings/${enc(signingId)}/prescribe`,
} as const;
