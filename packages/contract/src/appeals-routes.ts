/**
 * The API paths of appeals (spec §7): apart from `apiPaths`, which the first screen's script carries, so that only
 * the appeal screens download them (issue 21's budget).
 */
import { API_BASE } from './routes.ts';

const enc = encodeURIComponent;

export const appealsApiPaths = {
  appealAuth: `${API_BASE}/v1/appeal-auth`,
  appealFileUpload: (id: string) => `${API_BASE}/v1/appeal/${enc(id)}/file-upload`,
  appeal: (id: string) => `${API_BASE}/v1/appeal/${enc(id)}`,
  appealSave: (id: string) => `${API_BASE}/v1/appeal/${enc(id)}/save`,
  appealSubmit: (id: string) => `${API_BASE}/v1/appeal/${enc(id)}/submit`,
  /** Our additions: one attachment back (download) or out of its slot (remove). */
  appealFile: (id: string, slot: string) => `${API_BASE}/v1/appeal/${enc(id)}/files/${enc(slot)}`,
  /** Our additions (issue 23): the patient's earlier appeal files, and putting one in a slot without re-uploading. */
  appealEarlierFiles: (id: string) => `${API_BASE}/v1/appeal/${enc(id)}/earlier-files`,
  appealReuseFile: (id: string) => `${API_BASE}/v1/appeal/${enc(id)}/reuse-file`,
  /** Our addition: a signed-in prescriber opens their own prescription's appeal without the key. */
  userAppealAuth: (userId: string) => `${API_BASE}/v1/users/${enc(userId)}/appeal-auth`,
} as const;
