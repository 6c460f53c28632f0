/** Answers of the server for web tests, shaped by the contract's schemas (fetch is stubbed at the network edge). */
import type {
  ActionNeededPrescription,
  ActionNeededResponse,
  ActionQueueItem,
  ActionQueueResponse,
  Comment,
  DoctorListSearchResponse,
  FeatureFlags,
  PatientDetail,
  UserDetails,
} from '@hcp/contract';
import { vi } from 'vitest';

export function prescription(overrides: Partial<ActionNeededPrescription> = {}): ActionNeededPrescription {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    patientID: 'p1',
    needsRefillAuth: true,
    phoneException: false,
    substitutionStatus: null,
    priorAuthStatus: null,
    priorAuthMethod: null,
    hcpActionRequired: false,
    dispensedNdc: null,
    prescribedNdc: '00378-0018-01',
    drugName: 'Atorvastatin',
    strength: '20 mg',
    quantity: 30,
    daysSupply: 30,
    refills: 2,
    sig: 'Take one tablet daily',
    prescribedDate: '2026-11-10 09:30:00',
    lastProcessedDate: null,
    orderNumber: '1001',
    orderStatus: 'Awaiting Refill Authorization',
    price: null,
    alternativeMeds: [],
    ...overrides,
  };
}

export function actionNeeded(prescriptions: ActionNeededPrescription[] = [prescription()]): ActionNeededResponse {
  return {
    doctors: [
      {
        doctorId: 'd1',
        name: 'Alex Morgan',
        role: 'MD',
        patients: [
          {
            id: 'p1',
            firstName: 'jane',
            lastName: 'doe',
            dob: '1970-04-05',
            phoneNumbers: ['(614) 555-0101'],
            prescriptions: prescriptions.map((rx) => ({ ...rx, patientID: 'p1' })),
          },
        ],
      },
    ],
  };
}

export const userDetails = (overrides: Partial<UserDetails> = {}): UserDetails => ({
  userId: 'u',
  userName: 'Dr. Alex Morgan',
  email: 'dr.morgan@demo.hcp',
  phoneNumber: null,
  role: 'mdo.user',
  mdOfficeUser: { userType: 'mdo_user.prescriber', role: 'MD' },
  mdOfficePrefs: { prescribeVia: 'eRx', harrowPortalAccess: false, prescribingEnabled: false, notOnboarded: false },
  mdOfficeUserPrefs: {
    skipPriorAuthDismissNotice: false,
    skipErxConfirmation: false,
    skipSendConfirmation: false,
    newRequestNotices: true,
  },
  details: { mdOfficeId: 'o1', mdStaffId: 's1' },
  isVAMPracticeUser: false,
  brand: 'main',
  accountManager: null,
  ...overrides,
});

/** One queue item (issue 22): Jane Doe's Atorvastatin refill request, with its decision facts. */
export function queueItem(overrides: Partial<ActionQueueItem> = {}): ActionQueueItem {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    patient: { id: 'p1', firstName: 'jane', lastName: 'doe', dob: '1970-04-05' },
    prescriber: { id: 'd1', name: 'Alex Morgan', role: 'MD' },
    practice: { id: 'o1', name: 'Morgan Family Medicine', prescribeVia: 'Fax' },
    version: 1,
    needsRefillAuth: true,
    phoneException: false,
    substitutionStatus: null,
    priorAuthStatus: null,
    priorAuthMethod: null,
    hcpActionRequired: false,
    drugName: 'Atorvastatin',
    strength: '20 mg',
    prescribedNdc: '00378-0018-01',
    dispensedNdc: null,
    quantity: 30,
    daysSupply: 30,
    refills: 2,
    sig: 'Take one tablet daily',
    isControlled: false,
    prescribedDate: '2026-08-10 09:30:00Z',
    lastFilledOn: '2026-10-24',
    runOutInDays: 3,
    refillsRemaining: 0,
    timesRequestedBefore: 0,
    priorDenials: 0,
    priorAuthExpiresOn: null,
    alternativeMeds: [],
    waitingSince: '2026-11-19 14:00:00Z',
    ...overrides,
  };
}

export const actionQueue = (items: ActionQueueItem[] = [queueItem()]): ActionQueueResponse => ({ today: '2026-11-20', items });

/** A patient page answer: Jane Doe with an open refill request and a postponed one. */
export function patientDetail(id = 'p1'): PatientDetail {
  return {
    patient: {
      id,
      firstName: 'jane',
      lastName: 'doe',
      dob: '1970-04-05',
      phoneNumbers: ['(614) 555-0101'],
      address1: '1 Main St',
      city: 'Columbus',
      state: 'OH',
      zip: '43004',
      practiceName: 'Morgan Family Medicine',
    },
    prescriptions: [
      { ...prescription({ id: 'rx1' }), prescriberName: 'Alex Morgan', prescriberRole: 'MD', refillPostponedUntil: null },
      {
        ...prescription({ id: 'rx2', needsRefillAuth: false, drugName: 'Lisinopril' }),
        prescriberName: 'Alex Morgan',
        prescriberRole: 'MD',
        refillPostponedUntil: '2026-12-01',
      },
    ],
  };
}

export const threadPatient = { id: 'p1', firstName: 'JANE', lastName: 'doe', dob: '1970-04-05' };

export const commentRecord = (overrides: Partial<Comment> = {}): Comment => ({
  id: 'c1',
  authorName: 'Patient',
  fromPatient: true,
  body: 'Can I get a refill before my trip?',
  createdAt: '2026-11-19T14:00:00.000Z',
  mentionId: '44444444-4444-4444-8444-444444444444',
  unread: true,
  medication: 'Atorvastatin 20 mg',
  ...overrides,
});

export const newComments = (unreadCount = 1): DoctorListSearchResponse => ({
  total: unreadCount,
  doctors:
    unreadCount === 0
      ? []
      : [
          {
            doctorId: 'd1',
            name: 'Alex Morgan',
            role: 'MD',
            patients: [
              {
                id: 'p1',
                firstName: 'jane',
                lastName: 'doe',
                dob: '1970-04-05',
                unreadCount,
                latestAt: '2026-11-19T14:00:00.000Z',
              },
            ],
          },
        ],
});

export const featureFlags: FeatureFlags = { isHarrowPortalEnabled: false, isHcpPrescribingEnabled: false };

type Answer = { status: number; body: unknown };
/** An answer now, or later (a test holds a write's answer to order what happens meanwhile). */
type Route = (url: string, init: RequestInit) => Answer | Promise<Answer> | undefined;

/**
 * A fetch stub for the signed-in shell: action needed, user details and flags answer by default;
 * `routes` answer first. Returns the mock so tests can read the calls.
 */
export function stubServer(
  options: {
    actionNeeded?: ActionNeededResponse;
    newComments?: DoctorListSearchResponse;
    user?: UserDetails;
    routes?: Route;
  } = {},
) {
  const mock = vi.fn(async (url: string, init: RequestInit = {}) => {
    const custom = await options.routes?.(url, init);
    const answer =
      custom ??
      (url.includes('/doctor-list-search')
        ? { status: 200, body: options.newComments ?? newComments() }
        : url.includes('/all-rx-comment')
          ? { status: 200, body: { total: 1, records: [commentRecord()], patient: threadPatient } }
          : url.includes('/action-needed')
            ? { status: 200, body: options.actionNeeded ?? actionNeeded() }
            : url.includes('/mdo-user-details')
              ? { status: 200, body: options.user ?? userDetails() }
              : url.includes('/feature-flags')
                ? { status: 200, body: featureFlags }
                : url.includes('/rx-list')
                  ? { status: 200, body: [] }
                  : { status: 404, body: { error: { code: 'NOT_FOUND', message: 'Not found.' } } });
    return new Response(JSON.stringify(answer.body), { status: answer.status });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}
