/** Web route constants (spec §2) and API path builders (spec §7). */

export const ROUTES = {
  root: '/',
  login: '/login',
  logout: '/logout',
  loginVerify: '/login-verify',
  actionNeeded: '/action-needed',
  actionNeededDetail: '/action-needed/:prescriptionId/:authType',
  newComments: '/new-comments',
  newCommentsDetail: '/new-comments/:patientId',
  prescribe: '/prescribe',
  preferences: '/preferences',
  manageAccounts: '/manage-accounts',
  manageComms: '/manage-comms',
  getCovered: '/getcovered',
  getCoveredForm: '/getcovered-form',
  appealsForm: '/appeals-form',
  termsOfUse: '/terms-of-use',
  passwordResetRequest: '/password-reset-request',
  passwordReset: '/password-reset/:token?',
  passwordResetExpired: '/password-reset-expired',
  notFound: '/not-found',
  patientSearch: '/patient-search',
  patientDetail: '/patients/:patientId',
  practicePreferences: '/practice-preferences',
  practicePreferencesDetail: '/practice-preferences/:mdOfficeId',
  rxList: '/rx-list',
  googleLogin: '/google/:token',
  /** Our addition (issue 19): an admin registers the pharmacy's systems (integration clients). */
  manageIntegrations: '/manage-integrations',
  /** Our addition (issue 20): the one-time link of a fax cover sheet; it opens Action Needed after sign-in. */
  noticeLink: '/notice/:code',
  /** Our addition (issue 23): a practice's standing "stop asking" rules for refill requests, under Preferences. */
  standingRules: '/standing-rules',
  /** Our addition (issue 23): who signs for whom in a practice, and who covers whom until when, under Preferences. */
  coveringPrescribers: '/covering-prescribers',
  /** Our addition (issue 48): DEA registrations, permission to sign controlled substances, the EPCS reports. */
  controlledSubstances: '/controlled-substances',
  /** Our addition (issue 49): the privacy officer's audit trail. */
  auditTrail: '/audit-trail',
  /**
   * Our addition (issue 48, decision 0060): a user whose practice or provider requires a passkey or an authenticator
   * app, and who has none, adds one here right after signing in (their token is good for nothing else).
   */
  addSignInFactor: '/add-sign-in-factor',
} as const;
export type RouteKey = keyof typeof ROUTES;

/** Routes reachable without signing in (spec §2 "Public routes"). */
export const PUBLIC_ROUTE_KEYS = [
  'root',
  'login',
  'googleLogin',
  'logout',
  'loginVerify',
  'passwordResetRequest',
  'passwordReset',
  'passwordResetExpired',
  'notFound',
  'getCovered',
  'getCoveredForm',
  'appealsForm',
] as const satisfies readonly RouteKey[];

/**
 * The signed-in screens the portal is opened on (the landing screen, bookmarks, links in mails; decision 0047): the
 * page the server sends for them names their files, and their first requests leave before the router starts
 * (decision 0063). The root sends the user on to the first.
 */
export const LANDING_ROUTES = [ROUTES.actionNeeded, ROUTES.rxList, ROUTES.patientSearch, ROUTES.newComments] as const;
export type LandingRoute = (typeof LANDING_ROUTES)[number];

const enc = encodeURIComponent;

export const webPaths = {
  actionNeededDetail: (prescriptionId: string, authType: string) => `/action-needed/${enc(prescriptionId)}/${enc(authType)}`,
  newCommentsDetail: (patientId: string) => `/new-comments/${enc(patientId)}`,
  patientDetail: (patientId: string) => `/patients/${enc(patientId)}`,
  practicePreferencesDetail: (mdOfficeId: string) => `/practice-preferences/${enc(mdOfficeId)}`,
  passwordReset: (token?: string) => (token ? `/password-reset/${enc(token)}` : '/password-reset'),
  manageCommsPractices: '/manage-comms/practices',
  manageCommsPracticeCreate: '/manage-comms/practices/create',
  manageCommsPracticeEdit: (id: string, tab: 'details' | 'preferences' | 'hcps' = 'details') =>
    `/manage-comms/practices/${enc(id)}/edit/${tab}`,
  manageCommsHcps: '/manage-comms/hcps',
  manageCommsHcpCreate: '/manage-comms/hcps/create',
  manageCommsHcpEdit: (id: string, tab: 'details' | 'preferences' | 'contact-addresses' = 'details') =>
    `/manage-comms/hcps/${enc(id)}/edit/${tab}`,
};

/** The navigation tab a path belongs to (spec §2): any other path falls back to Action Needed. */
export type NavTab = 'actionNeeded' | 'patients' | 'rxList' | 'newComments' | 'prescribe' | 'manageComms';
export function activeTabForPath(pathname: string): NavTab {
  const startsWith = (prefix: string) => pathname === prefix || pathname.startsWith(`${prefix}/`);
  if (startsWith('/patient-search') || startsWith('/patients')) return 'patients';
  if (startsWith('/rx-list')) return 'rxList';
  if (startsWith('/new-comments')) return 'newComments';
  if (startsWith('/prescribe')) return 'prescribe';
  if (startsWith('/manage-comms')) return 'manageComms';
  return 'actionNeeded';
}

/** Request headers of spec §7. */
export const API_HEADERS = {
  authorization: 'authorization',
  userId: 'x-user-id',
  requestId: 'x-request-id',
  appSource: 'x-app-source',
} as const;
export const APP_SOURCE = 'md-dashboard';
/** The dashboard named in sign-in and session calls (spec §3). */
export const DASHBOARD = 'MD Dashboard';

export const API_BASE = '/api/mdo';
export const AUTH_SERVICE_BASE = '/auth-service';

const user = (userId: string) => `${API_BASE}/v1/users/${enc(userId)}`;
const rx = (id: string) => `${API_BASE}/v1/prescriptions/${enc(id)}`;

/**
 * The signed-in shell's first requests (and the Rx list's opening rows), apart so that the page's head start, which
 * runs before the entry on the four landing pages, carries these few and not the whole table (decision 0066).
 */
export const shellApiPaths = {
  userDetails: (userId: string) => `${user(userId)}/mdo-user-details`,
  featureFlags: `${API_BASE}/v1/feature-flags`,
  actionNeeded: (userId: string) => `${API_BASE}/v2/users/${enc(userId)}/action-needed`,
  rxList: (userId: string) => `${user(userId)}/rx-list`,
  doctorListSearch: (userId: string) => `${API_BASE}/v2/users/${enc(userId)}/doctor-list-search`,
};

/**
 * The shell's requests answered in one response, for the head start only (decision 0068): apart from `apiPaths`,
 * so the entry, which never asks for it, does not carry it.
 */
export const firstAnswersApiPath = (userId: string) => `${user(userId)}/first-answers`;

export const apiPaths = {
  ...shellApiPaths,
  // auth service and legacy auth
  login: `${AUTH_SERVICE_BASE}/login`,
  mfa: `${AUTH_SERVICE_BASE}/mfa`,
  mfaResend: `${AUTH_SERVICE_BASE}/mfa/resend`,
  mfaPasskeyOptions: `${AUTH_SERVICE_BASE}/mfa/passkey-options`,
  passkeyLoginOptions: `${AUTH_SERVICE_BASE}/passkey-login/options`,
  passkeyLogin: `${AUTH_SERVICE_BASE}/passkey-login`,
  signInOptions: `${AUTH_SERVICE_BASE}/options`,
  refresh: `${AUTH_SERVICE_BASE}/refresh`,
  legacyLogin: '/auth/mdo/login',
  legacyVerify2Step: '/auth/mdo/verify-2-step',
  legacyRefresh: '/auth/refresh-token',
  logout: '/auth/logout',
  googleLogin: (token: string) => `/auth/mdo/google/${enc(token)}`,
  resetPassword: '/auth/user/reset-password',
  verifyPasswordToken: '/auth/mdo/verify-password-token',
  updatePasswordByToken: `${API_BASE}/v1/update-password`,
  changePassword: (userId: string) => `${user(userId)}/update-password`,
  rememberedDevices: (userId: string) => `${user(userId)}/remembered-devices`,
  // sign-in factors (issue 48)
  signInFactors: (userId: string) => `${user(userId)}/sign-in-factors`,
  authenticatorApp: (userId: string) => `${user(userId)}/sign-in-factors/authenticator-app`,
  confirmAuthenticatorApp: (userId: string) => `${user(userId)}/sign-in-factors/authenticator-app/confirm`,
  removeAuthenticatorApp: (userId: string) => `${user(userId)}/sign-in-factors/authenticator-app/remove`,
  recoveryCodes: (userId: string) => `${user(userId)}/sign-in-factors/recovery-codes`,
  passkeyOptions: (userId: string) => `${user(userId)}/sign-in-factors/passkeys/options`,
  passkeys: (userId: string) => `${user(userId)}/sign-in-factors/passkeys`,
  removePasskey: (userId: string, passkeyId: string) => `${user(userId)}/sign-in-factors/passkeys/${enc(passkeyId)}/remove`,
  renamePasskey: (userId: string, passkeyId: string) => `${user(userId)}/sign-in-factors/passkeys/${enc(passkeyId)}/rename`,
  // users
  tenant: `${API_BASE}/v1/tenant`,
  userPreferences: (userId: string) => `${user(userId)}/preferences`,
  myPractices: (userId: string) => `${user(userId)}/practices`,
  verifyAddress: (userId: string) => `${user(userId)}/verify-address`,
  // prescriptions
  actionQueue: (userId: string) => `${API_BASE}/v2/users/${enc(userId)}/action-queue`,
  refillAuthorizedFax: (id: string) => `${rx(id)}/refills-authorized/fax`,
  refillAuthorizedErx: (id: string) => `${rx(id)}/refills-authorized/erx`,
  refillDenied: (id: string) => `${rx(id)}/refills-denied`,
  refillPostponed: (id: string) => `${rx(id)}/refills-postponed`,
  alternativeMed: (id: string) => `${rx(id)}/substitution/alternative-med`,
  alternativeMedsRequestPrint: (id: string) => `${rx(id)}/alternative-meds-request-print`,
  prescriptionEvents: (id: string) => `${rx(id)}/events`,
  chartNotesSent: (id: string) => `${rx(id)}/prior-auth/chart-notes-sent`,
  priorAuthDismiss: `${API_BASE}/v1/prescriptions/all/prior-auth/dismiss`,
  preparedDecision: (id: string) => `${rx(id)}/prepared-decision`,
  earlierChartNotes: (id: string) => `${rx(id)}/earlier-chart-notes`,
  signPrepared: `${API_BASE}/v1/prepared-decisions/sign`,
  bulkActions: `${API_BASE}/v1/prescriptions/bulk-actions`,
  undoDecision: (requestId: string) => `${API_BASE}/v1/decisions/${enc(requestId)}/undo`,
  mdSignatureReceived: `${API_BASE}/v1/prescriptions/all/prior-auth/md-signature-received`,
  resolvePhoneExceptions: `${API_BASE}/v1/patient-numbers/resolve-exceptions`,
  // comments
  patientSearch: (userId: string) => `${user(userId)}/patients-search`,
  patientDetail: (userId: string, patientId: string) => `${user(userId)}/patients/${enc(patientId)}`,
  allRxComments: (patientId: string) => `${API_BASE}/v1/patients/${enc(patientId)}/all-rx-comment`,
  rxComment: (userId: string) => `${user(userId)}/rx-comment`,
  officeMentions: (userId: string) => `${user(userId)}/office-mentions`,
  // practices, staff
  mdOfficesSearch: `${API_BASE}/v1/md-offices-search`,
  mdOffice: (id: string) => `${API_BASE}/v1/md-offices/${enc(id)}`,
  mdOfficeCommPrefs: (id: string) => `${API_BASE}/v1/md-offices/${enc(id)}/comm-prefs`,
  zipInfo: (zip: string) => `${API_BASE}/v1/zip-info/${enc(zip)}`,
  // minimum necessary access (our design, decision 0020)
  practiceWorkload: (userId: string) => `${user(userId)}/practice-workload`,
  supportAccess: (userId: string) => `${user(userId)}/support-access`,
  practiceSupportAccessLog: (id: string) => `${API_BASE}/v1/md-offices/${enc(id)}/support-access`,
  liveUpdates: (userId: string) => `${API_BASE}/v1/users/${enc(userId)}/live-updates`,
  noticeLinkRedeem: (userId: string) => `${user(userId)}/notice-links/redeem`,
} as const;
