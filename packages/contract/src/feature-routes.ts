/**
 * The API paths of screens that load on demand: apart from `apiPaths`, which the first screen's script carries, so
 * that only the screens that use them download them (issue 21's budget; checked by the first-load journey).
 */
import { API_BASE } from './routes.ts';

const enc = encodeURIComponent;
const user = (userId: string) => `${API_BASE}/v1/users/${enc(userId)}`;

export const manageCommsApiPaths = {
  mdOffices: `${API_BASE}/v1/md-offices`,
  mdOfficeStaff: (id: string) => `${API_BASE}/v1/md-offices/${enc(id)}/staff`,
  /** Our addition: takes a person off a practice (the person stays). */
  mdOfficeStaffMember: (id: string, staffId: string) => `${API_BASE}/v1/md-offices/${enc(id)}/staff/${enc(staffId)}`,
  staffSearch: `${API_BASE}/v1/staff`,
  staff: (id: string) => `${API_BASE}/v1/staff/${enc(id)}`,
  mdStaff: (id: string) => `${API_BASE}/v1/md-staff/${enc(id)}`,
  mdPartnerCommPrefs: (id: string) => `${API_BASE}/v1/md-partner/${enc(id)}/comm-prefs`,
  salesList: `${API_BASE}/v1/sales-list`,
} as const;

export const accountsApiPaths = {
  accounts: `${API_BASE}/v1/accounts`,
  account: (id: string) => `${API_BASE}/v1/accounts/${enc(id)}`,
  accountResetMfa: (id: string) => `${API_BASE}/v1/accounts/${enc(id)}/reset-mfa`,
} as const;

export const standingRulesApiPaths = {
  standingRules: (userId: string) => `${user(userId)}/standing-rules`,
  standingRulePreview: (userId: string) => `${user(userId)}/standing-rules/preview`,
  standingRule: (userId: string, id: string) => `${user(userId)}/standing-rules/${enc(id)}`,
} as const;

export const coverageApiPaths = {
  coverage: (userId: string) => `${user(userId)}/coverage`,
  signingPolicy: (userId: string) => `${user(userId)}/coverage/policy`,
  coverageItem: (userId: string, id: string) => `${user(userId)}/coverage/${enc(id)}`,
} as const;

export const prescribeApiPaths = {
  drugCatalogue: `${API_BASE}/v1/drug-catalogue`,
  createPrescription: (userId: string) => `${user(userId)}/prescriptions`,
  prescriptionDraft: (userId: string) => `${user(userId)}/prescription-draft`,
} as const;
