/**
 * The API paths of the audit trail (issue 49): apart from `apiPaths`, which the first screen's script carries, so
 * that only the privacy officer's screens download them (issue 21's budget).
 */
import { API_BASE } from './routes.ts';

const base = `${API_BASE}/v1/audit-trail`;
const enc = encodeURIComponent;
const query = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter((e): e is [string, string | number] => e[1] !== undefined)
    .map(([k, v]) => `${enc(k)}=${enc(String(v))}`)
    .join('&');

type Range = { from: string; to: string };

export const auditApiPaths = {
  patientSearch: `${base}/patient-search`,
  users: (search = '') => `${base}/users?${query({ search })}`,
  patientAccess: (q: Range & { patientId: string; page?: number }) => `${base}/patient-access?${query(q)}`,
  patientAccessExport: (q: Range & { patientId: string; format: string }) => `${base}/patient-access/export?${query(q)}`,
  userActivity: (q: Range & { userId: string; page?: number }) => `${base}/user-activity?${query(q)}`,
  userActivityExport: (q: Range & { userId: string; format: string }) => `${base}/user-activity/export?${query(q)}`,
  supportWindows: (q: Range & { status: string; page?: number }) => `${base}/support-windows?${query(q)}`,
  supportWindowReview: (id: string) => `${base}/support-windows/${enc(id)}/review`,
  unusualAccess: (q: Range & { status: string; rule?: string }) => `${base}/unusual-access?${query(q)}`,
  findingReview: `${base}/findings/review`,
  verify: `${base}/verify`,
  privacyOfficers: `${base}/privacy-officers`,
  privacyOfficer: (userId: string) => `${base}/privacy-officers/${enc(userId)}`,
} as const;
