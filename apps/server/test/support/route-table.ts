/**
 * The route table of the authorisation suite (permissions-matrix.test.ts) and the bad-input suite
 * (bad-input.test.ts): every signed-in API route with a valid call, who may reach it, and the demo fixture.
 */
import { randomInt } from 'node:crypto';
import { NOTICE_CODE_ALPHABET, NOTICE_CODE_LENGTH, type Tokens } from '@hcp/contract';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.ts';
import * as s from '../../src/db/schema.ts';
import { registerClient } from '../../src/features/integrations/clients.ts';
import { sha256 } from '../../src/lib/crypto.ts';
import type { TestApp } from './app.ts';
import { injectAs, signIn } from './auth.ts';

export const WHO = ['prescriber', 'staff', 'otherPrescriber', 'vam', 'otherTenant', 'sales', 'admin', 'support'] as const;
export type Who = (typeof WHO)[number];
export const TARGETS = ['own', 'other', 'otherTenant'] as const;
export type Target = (typeof TARGETS)[number];
export type Outcome = 'reached' | 403 | 404;
/** The practice each kind of user works in: their own calls are built from its ids (the reach suites). */
export const HOME: Record<Who, Target> = {
  prescriber: 'own',
  staff: 'own',
  otherPrescriber: 'other',
  vam: 'own',
  otherTenant: 'otherTenant',
  sales: 'own',
  admin: 'own',
  support: 'own',
};

/** Whose practice each target is: Morgan Family Medicine, Dr. Patel's practice, Dr. Kim's Harrow practice. */
const MEMBERS: Record<Target, Who[]> = { own: ['prescriber', 'staff'], other: ['otherPrescriber'], otherTenant: ['otherTenant'] };
/** The provider's users of the main tenant; `support` is an admin with a read-only window on Morgan Family Medicine. */
export const PROVIDER: Who[] = ['sales', 'admin', 'support'];
export const ADMINS: Who[] = ['admin', 'support'];
/** Prescribers whose practice enabled prescribing (all three in the demo). */
const PRESCRIBERS: Who[] = ['prescriber', 'otherPrescriber', 'otherTenant'];

export const member = (w: Who, t: Target) => MEMBERS[t].includes(w);
export const supportOn = (w: Who, t: Target) => w === 'support' && t === 'own';
/** The provider's users manage every practice of their tenant (decision 0015). */
const manager = (w: Who, t: Target) => PROVIDER.includes(w) && t !== 'otherTenant';
const yes = (ok: boolean): Outcome => (ok ? 'reached' : 404);
const sign = (w: Who, t: Target): Outcome => (member(w, t) ? (w === 'staff' ? 403 : 'reached') : supportOn(w, t) ? 403 : 404);

export const RULES = {
  everyone: (): Outcome => 'reached',
  /** Patient data: the practice's own people, and a support window (read-only). */
  patientRead: (w: Who, t: Target) => yes(member(w, t) || supportOn(w, t)),
  /** A write on patient data that needs no signature (staff may): a support window sees it, so 403. */
  officeWrite: (w: Who, t: Target): Outcome => (member(w, t) ? 'reached' : supportOn(w, t) ? 403 : 404),
  /** A prescriber's decision: staff and support windows see it (403), everyone else does not (404). */
  sign,
  /** A practice setting its prescribers change and its people read (no patient data): reached as `sign`. */
  prescriberSetting: (w: Who, t: Target) => sign(w, t),
  /** A practice's record and communication preferences: its own people and the provider's users. */
  practice: (w: Who, t: Target) => yes(member(w, t) || manager(w, t)),
  manage: (w: Who, t: Target) => yes(manager(w, t)),
  provider: (w: Who) => yes(PROVIDER.includes(w)),
  admins: (w: Who, t: Target) => yes(ADMINS.includes(w) && t !== 'otherTenant'),
  prescribers: (w: Who) => yes(PRESCRIBERS.includes(w)),
  /** Dr. Morgan's appeal: he opens it to submit, his practice's staff to prepare it for him (issue 23). */
  ownAppealPractice: (w: Who) => yes(w === 'prescriber' || w === 'staff'),
  /**
   * A bulk decision needing a signature: every item id is resolved through the reach check first (issue 42), so ids
   * outside the caller's reach are 404 whoever asks (an admin outside any window too); then as `sign`.
   */
  bulkSign: (w: Who, t: Target) => sign(w, t),
  /** Something only its maker holds (an undo of one's own decision): someone else's, or nobody's, is 404. */
  makersOnly: (): Outcome => 404,
} satisfies Record<string, (w: Who, t: Target) => Outcome>;

export interface Ids {
  officeId: string;
  staffId: string;
  /** Two of the practice's prescribers (HCP ids): who covers whom in the coverage rows. */
  prescriberIds: [string, string];
  accountId: string;
  patientId: string;
  mentionId: string;
  /** The code of a fax notice's one-time link of the practice (issue 20). */
  noticeCode: string;
  rx: { refill: string; altMed: string; chartNotes: string; any: string };
}
export interface Fixture {
  me: (w: Who) => string;
  ids: Record<Target, Ids>;
  ownAppealRx: string;
  productId: string;
  /** An integration client of the main tenant (issue 19). */
  integrationClientId: string;
  /** A webhook endpoint of the main tenant and one of its deliveries (issue 20). */
  webhookEndpointId: string;
  webhookDeliveryId: string;
  /** The support window the `support` admin holds on Morgan Family Medicine (issue 49 reviews it). */
  supportWindowId: string;
}

export interface Row {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The OpenAPI path, e.g. /api/mdo/v1/md-offices/{id}. */
  path: string;
  url: (f: Fixture, w: Who, t: Ids) => string;
  body?: (f: Fixture, w: Who, t: Ids) => unknown;
  /** Another valid body naming the optional references `body` leaves out (the reach matrix fills those in). */
  altBody?: (f: Fixture, w: Who, t: Ids) => unknown;
  expect: (w: Who, t: Target) => Outcome;
  /** Rows whose url and body name no practice's ids run against the own target only. */
  targeted?: boolean;
  /** Puts the resource back around each call (a reached delete removed it for the next user and row). */
  prepare?: (t: Ids, db: Database) => Promise<unknown>;
}

const v1 = '/api/mdo/v1';
/** A standing rule for the practice's patient that matches no request (so reaching it answers nothing). */
const ruleBody = (t: Ids) => ({
  name: 'Matrix rule',
  practiceId: t.officeId,
  action: 'discontinued',
  patientId: t.patientId,
  drugName: 'Matrix drug that no one takes',
});
/** Each practice's matrix rule has the practice's id as its own, so a row can name it without a fixture field. */
const keepMatrixRule = (db: Database, t: Ids) =>
  db
    .insert(s.standingRules)
    .values({
      id: t.officeId,
      mdOfficeId: t.officeId,
      name: 'Matrix rule',
      action: 'discontinued',
      patientId: t.patientId,
      drugName: 'Matrix drug that no one takes',
    })
    .onConflictDoNothing();
/** A day's coverage between the practice's two first prescribers. */
const coverageBody = (t: Ids) => ({
  practiceId: t.officeId,
  coveringPrescriberId: t.prescriberIds[0],
  coveredPrescriberId: t.prescriberIds[1],
  startsAt: new Date().toISOString(),
  endsAt: new Date(Date.now() + 86_400_000).toISOString(),
});
/** Each practice's matrix coverage has the practice's id as its own (open again around each call). */
const keepMatrixCoverage = (db: Database, t: Ids) =>
  db
    .insert(s.coverages)
    .values({
      id: t.officeId,
      mdOfficeId: t.officeId,
      coveringStaffId: t.prescriberIds[0],
      coveredStaffId: t.prescriberIds[1],
      startsAt: new Date(),
      endsAt: new Date(Date.now() + 86_400_000),
    })
    .onConflictDoUpdate({ target: s.coverages.id, set: { endedAt: null, endedBy: null } });
const u = (f: Fixture, w: Who) => `${v1}/users/${f.me(w)}`;
const sender = { senderName: 'Matrix Test' };
export const officeBody = (name: string) => ({
  name,
  address1: '1 Main St',
  city: 'Columbus',
  state: 'OH',
  zip: '43215',
  phoneNumber: '(614) 555-0100',
  isKeyAccount: false,
});

/** A public key set as a pharmacy would register it (an RSA key; its private half is not needed here). */
const MATRIX_JWKS = {
  keys: [
    {
      kty: 'RSA' as const,
      kid: 'matrix-1',
      alg: 'RS384',
      use: 'sig',
      e: 'AQAB',
      n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
    },
  ],
};

/** A prescription of the catalogue's first plain product (Prescribe Rx and its EPCS signing take the same body). */
const prescriptionOrder = (f: Fixture) => ({
  productId: f.productId,
  quantity: 30,
  daysSupply: 30,
  refills: 1,
  sig: 'Take 1 daily',
  substitutionAllowed: true,
});
/** For a new patient. */
const newPrescriptionBody = (f: Fixture) => ({
  patient: {
    newPatient: {
      fullName: 'Matrix Patient',
      dob: '1970-01-01',
      phoneNumber: '(614) 555-0190',
      address1: '1 Main St',
      city: 'Columbus',
      state: 'OH',
      zip: '43215',
    },
  },
  order: prescriptionOrder(f),
});
/** For the practice's patient. */
const prescriptionBodyFor = (f: Fixture, t: Ids) => ({ patient: { patientId: t.patientId }, order: prescriptionOrder(f) });

export const ROWS: Row[] = [
  {
    method: 'GET',
    path: `${v1}/users/{userId}/remembered-devices`,
    url: (f, w) => `${u(f, w)}/remembered-devices`,
    expect: RULES.everyone,
  },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/remembered-devices`,
    url: (f, w) => `${u(f, w)}/remembered-devices`,
    expect: RULES.everyone,
  },
  // Issue 48: a user's own sign-in factors (every user has them; another user's id is 404 by the self reference).
  {
    method: 'GET',
    path: `${v1}/users/{userId}/sign-in-factors`,
    url: (f, w) => `${u(f, w)}/sign-in-factors`,
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/authenticator-app`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/authenticator-app`,
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/authenticator-app/confirm`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/authenticator-app/confirm`,
    body: () => ({ code: '000000' }),
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/authenticator-app/remove`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/authenticator-app/remove`,
    body: () => ({ currentPassword: 'not-the-password' }),
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/passkeys/options`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/passkeys/options`,
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/passkeys`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/passkeys`,
    body: () => ({
      name: 'Matrix key',
      credential: {
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        clientExtensionResults: {},
        response: { clientDataJSON: 'AAAA', attestationObject: 'AAAA' },
      },
    }),
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/passkeys/{passkeyId}/rename`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/passkeys/00000000-0000-4000-8000-000000000000/rename`,
    body: () => ({ name: 'Renamed' }),
    // No such passkey of the caller's: 404 for everyone (a passkey is found only among its owner's).
    expect: () => 404,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/passkeys/{passkeyId}/remove`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/passkeys/00000000-0000-4000-8000-000000000000/remove`,
    body: () => ({ currentPassword: 'not-the-password' }),
    expect: () => 404,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/sign-in-factors/recovery-codes`,
    url: (f, w) => `${u(f, w)}/sign-in-factors/recovery-codes`,
    body: () => ({ currentPassword: 'not-the-password' }),
    expect: RULES.everyone,
  },
  // Issue 48, sign-in policy (decision 0060): the tenant's by its admins; a practice's read by its people and changed
  // by its prescribers (staff see it: 403) or the provider's admins. The bodies keep the policy as it is (off).
  {
    method: 'GET',
    path: `${v1}/sign-in-policy`,
    url: () => `${v1}/sign-in-policy`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'PUT',
    path: `${v1}/sign-in-policy`,
    url: () => `${v1}/sign-in-policy`,
    body: () => ({ strongFactorRequired: false, emailCodesAllowed: true }),
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'GET',
    path: `${v1}/practices/{practiceId}/sign-in-policy`,
    url: (_f, _w, t) => `${v1}/practices/${t.officeId}/sign-in-policy`,
    expect: (w, t) => yes(member(w, t) || (ADMINS.includes(w) && t !== 'otherTenant')),
    targeted: true,
  },
  {
    method: 'PUT',
    path: `${v1}/practices/{practiceId}/sign-in-policy`,
    url: (_f, _w, t) => `${v1}/practices/${t.officeId}/sign-in-policy`,
    body: () => ({ strongFactorRequired: false }),
    expect: (w, t) =>
      member(w, t) ? (w === 'staff' ? 403 : 'reached') : ADMINS.includes(w) && t !== 'otherTenant' ? 'reached' : 404,
    targeted: true,
  },
  // Issue 48, EPCS: the caller's own page; registrations are a prescriber's (anyone else: 403, seen but not theirs).
  {
    method: 'GET',
    path: `${v1}/users/{userId}/epcs`,
    url: (f, w) => `${u(f, w)}/epcs`,
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/epcs/registrations`,
    url: (f, w) => `${u(f, w)}/epcs/registrations`,
    body: () => ({ number: 'BM1234563', schedules: ['IV'], state: 'OH', expiresOn: '2028-06-30' }),
    expect: (w) => (PRESCRIBERS.includes(w) ? 'reached' : 403),
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/epcs/registrations/{registrationId}/remove`,
    url: (f, w) => `${u(f, w)}/epcs/registrations/00000000-0000-4000-8000-000000000000/remove`,
    // A registration is found only among the caller's own.
    expect: () => 404,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/epcs/step-up-options`,
    url: (f, w) => `${u(f, w)}/epcs/step-up-options`,
    expect: RULES.everyone,
  },
  {
    // Entering a change of permission: the practice's own people (the provider's users manage no EPCS permissions).
    method: 'POST',
    path: `${v1}/epcs-changes`,
    url: () => `${v1}/epcs-changes`,
    body: (_f, _w, t) => ({
      practiceId: t.officeId,
      hcpId: t.prescriberIds[0],
      action: 'grant',
      stepUp: { currentPassword: 'not-the-password', totpCode: '000000' },
    }),
    expect: (w, t) => yes(member(w, t)),
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/epcs-changes/{changeId}/approve`,
    url: () => `${v1}/epcs-changes/00000000-0000-4000-8000-000000000000/approve`,
    body: () => ({ registrationVerified: true, stepUp: { currentPassword: 'not-the-password', totpCode: '000000' } }),
    expect: () => 404,
  },
  {
    method: 'POST',
    path: `${v1}/epcs-changes/{changeId}/decline`,
    url: () => `${v1}/epcs-changes/00000000-0000-4000-8000-000000000000/decline`,
    expect: () => 404,
  },
  {
    // The practice's EPCS prescribers only: its other people see it and are refused (no one here holds permission).
    method: 'GET',
    path: `${v1}/practices/{practiceId}/epcs-report`,
    url: (_f, _w, t) => `${v1}/practices/${t.officeId}/epcs-report?day=2026-12-03`,
    expect: (w, t) => (member(w, t) ? 403 : 404),
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/prescriptions/{id}/epcs-signing`,
    url: (_f, _w, t) => `${v1}/prescriptions/${t.rx.refill}/epcs-signing`,
    body: () => ({ refills: 1, sig: 'Take 1 daily' }),
    expect: RULES.sign,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/epcs-signings/{signingId}/sign`,
    url: () => `${v1}/epcs-signings/00000000-0000-4000-8000-000000000000/sign`,
    body: () => ({ stepUp: { currentPassword: 'not-the-password', totpCode: '000000' } }),
    expect: () => 404,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/update-password`,
    url: (f, w) => `${u(f, w)}/update-password`,
    body: () => ({ currentPassword: 'not-the-password', newPassword: 'another-long-password' }),
    expect: RULES.everyone,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/mdo-user-details`,
    url: (f, w) => `${u(f, w)}/mdo-user-details`,
    expect: RULES.everyone,
  },
  { method: 'GET', path: `${v1}/feature-flags`, url: () => `${v1}/feature-flags`, expect: RULES.everyone },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/preferences`,
    url: (f, w) => `${u(f, w)}/preferences`,
    body: () => ({ userName: 'Matrix User', phoneNumber: '', skipPriorAuthDismissNotice: false, skipErxConfirmation: true }),
    expect: RULES.everyone,
  },
  // Lists answer everyone, each with only what their scope holds (support-access.test.ts checks the contents).
  {
    method: 'GET',
    path: '/api/mdo/v2/users/{userId}/action-needed',
    url: (f, w) => `/api/mdo/v2/users/${f.me(w)}/action-needed?actionType=ACTION_NEEDED_ALL`,
    expect: RULES.everyone,
  },
  {
    // One decision on many items: every item id is resolved first (issue 42), so one out of reach makes the whole
    // call 404; within reach, it is refused (403) to whom the decision is not theirs.
    method: 'POST',
    path: '/api/mdo/v1/prescriptions/bulk-actions',
    url: () => '/api/mdo/v1/prescriptions/bulk-actions',
    body: (_f, _w, ids) => ({ action: 'refillDeny', reason: 'NEED_OFFICE_VISIT', items: [{ id: ids.rx.refill }], ...sender }),
    expect: RULES.bulkSign,
  },
  // Prepare-then-sign (issue 23): the practice's own people prepare (a support window 403); only prescribers sign.
  {
    method: 'PUT',
    path: '/api/mdo/v1/prescriptions/{id}/prepared-decision',
    url: (_f, _w, t) => `/api/mdo/v1/prescriptions/${t.rx.refill}/prepared-decision`,
    body: () => ({ action: 'refillDenied', reason: 'NEED_OFFICE_VISIT', note: 'Matrix' }),
    expect: RULES.officeWrite,
    targeted: true,
  },
  {
    method: 'DELETE',
    path: '/api/mdo/v1/prescriptions/{id}/prepared-decision',
    url: (_f, _w, t) => `/api/mdo/v1/prescriptions/${t.rx.refill}/prepared-decision`,
    expect: RULES.officeWrite,
    targeted: true,
  },
  {
    method: 'POST',
    path: '/api/mdo/v1/prepared-decisions/sign',
    url: () => '/api/mdo/v1/prepared-decisions/sign',
    body: (_f, _w, t) => ({ items: [{ id: t.rx.refill }], ...sender }),
    expect: RULES.bulkSign,
    // Something prepared to sign, so a reached call runs the decision (and its audit row) like any other.
    prepare: (t, db) =>
      db
        .insert(s.preparedDecisions)
        .values({
          prescriptionId: t.rx.refill,
          decision: { action: 'refillDenied', reason: 'NEED_OFFICE_VISIT', note: null },
          preparedBy: sql`(select id from users where email = 'staff.lee@demo.hcp')`,
          prescriptionVersion: sql`(select version from prescriptions where id = ${t.rx.refill}::uuid)`,
        })
        .onConflictDoNothing(),
  },
  {
    // Undo takes back one's own decision only (undo.test.ts: the maker's undo, within and after the window); a
    // decision made by anyone else is as unknown as none, for every kind of user.
    method: 'POST',
    path: '/api/mdo/v1/decisions/{requestId}/undo',
    url: () => '/api/mdo/v1/decisions/MatrixUndo0000000000000A/undo',
    expect: RULES.makersOnly,
  },
  {
    method: 'GET',
    path: '/api/mdo/v2/users/{userId}/action-queue',
    url: (f, w) => `/api/mdo/v2/users/${f.me(w)}/action-queue`,
    expect: RULES.everyone,
  },
  ...(
    [
      ['refills-authorized/fax', 'refill', { refills: 1, sig: 'Take 1 daily', ...sender }, RULES.sign],
      ['refills-authorized/erx', 'refill', { skipErxConfirmation: true }, RULES.sign],
      ['refills-denied', 'refill', { reason: 'NEED_OFFICE_VISIT', ...sender }, RULES.sign],
      ['refills-postponed', 'refill', { refillPostponedToDate: '2027-01-15', ...sender }, RULES.officeWrite],
      ['substitution/alternative-med', 'altMed', { noSubstitute: true, ...sender }, RULES.sign],
      [
        'prior-auth/chart-notes-sent',
        'chartNotes',
        { chartNote: 'Notes attached.', isICD10TriedAndFailed: false },
        RULES.officeWrite,
      ],
    ] as const
  ).map(
    ([action, kind, body, rule]): Row => ({
      method: 'POST',
      path: `${v1}/prescriptions/{id}/${action}`,
      url: (_f, _w, t) => `${v1}/prescriptions/${t.rx[kind]}/${action}`,
      body: () => body,
      expect: rule,
      targeted: true,
    }),
  ),
  {
    method: 'POST',
    path: `${v1}/prescriptions/all/prior-auth/dismiss`,
    url: () => `${v1}/prescriptions/all/prior-auth/dismiss`,
    body: (_f, _w, t) => ({ prescriptionIds: [t.rx.chartNotes] }),
    expect: RULES.officeWrite,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/prescriptions/all/prior-auth/md-signature-received`,
    url: () => `${v1}/prescriptions/all/prior-auth/md-signature-received`,
    body: (_f, _w, t) => ({ prescriptionIds: [t.rx.chartNotes] }),
    expect: RULES.officeWrite,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/patient-numbers/resolve-exceptions`,
    url: () => `${v1}/patient-numbers/resolve-exceptions`,
    body: (_f, _w, t) => ({ patientPhoneNumberUpdates: [{ patientId: t.patientId, phoneNumber: '(614) 555-0123' }] }),
    expect: RULES.officeWrite,
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/prescriptions/{id}/alternative-meds-request-print`,
    url: (_f, _w, t) => `${v1}/prescriptions/${t.rx.altMed}/alternative-meds-request-print`,
    expect: RULES.patientRead,
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/prescriptions/{id}/earlier-chart-notes`,
    url: (_f, _w, t) => `${v1}/prescriptions/${t.rx.chartNotes}/earlier-chart-notes`,
    expect: RULES.patientRead,
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/prescriptions/{id}/events`,
    url: (_f, _w, t) => `${v1}/prescriptions/${t.rx.any}/events`,
    expect: RULES.patientRead,
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/rx-list`,
    url: (f, w) => `${u(f, w)}/rx-list?startdate=2026-11-01&enddate=2026-11-20`,
    expect: RULES.everyone,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/first-answers`,
    url: (f, w) => `${u(f, w)}/first-answers?screen=%2Frx-list&startdate=2026-11-19&enddate=2026-11-20`,
    expect: RULES.everyone,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/patients-search`,
    url: (f, w) => `${u(f, w)}/patients-search?searchText=smith`,
    expect: RULES.everyone,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/patients/{patientId}`,
    url: (f, w, t) => `${u(f, w)}/patients/${t.patientId}`,
    expect: RULES.patientRead,
    targeted: true,
  },
  {
    method: 'GET',
    path: '/api/mdo/v2/users/{userId}/doctor-list-search',
    url: (f, w) => `/api/mdo/v2/users/${f.me(w)}/doctor-list-search?newComments=true`,
    expect: RULES.everyone,
  },
  {
    method: 'GET',
    path: `${v1}/patients/{patientId}/all-rx-comment`,
    url: (_f, _w, t) => `${v1}/patients/${t.patientId}/all-rx-comment`,
    expect: RULES.patientRead,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/rx-comment`,
    url: (f, w) => `${u(f, w)}/rx-comment`,
    body: (_f, _w, t) => ({ patientId: t.patientId, comment: 'Matrix reply.' }),
    expect: RULES.officeWrite,
    targeted: true,
  },
  {
    method: 'PUT',
    path: `${v1}/users/{userId}/office-mentions`,
    url: (f, w) => `${u(f, w)}/office-mentions`,
    body: (_f, _w, t) => ({ mentionIds: [t.mentionId] }),
    expect: RULES.officeWrite,
    targeted: true,
  },
  { method: 'GET', path: `${v1}/md-offices-search`, url: () => `${v1}/md-offices-search`, expect: RULES.provider },
  {
    method: 'POST',
    path: `${v1}/md-offices`,
    url: () => `${v1}/md-offices`,
    body: (_f, w) => officeBody(`Matrix Practice ${w}`),
    expect: RULES.provider,
  },
  {
    method: 'GET',
    path: `${v1}/md-offices/{id}`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}`,
    expect: RULES.practice,
    targeted: true,
  },
  {
    method: 'PUT',
    path: `${v1}/md-offices/{id}`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}`,
    // Keeps the sales user assigned: their practice scope (overview, support access) follows the assignment.
    body: (f) => ({ ...officeBody('Matrix Renamed Practice'), isKeyAccount: true, salesUserId: f.me('sales') }),
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'DELETE',
    path: `${v1}/md-offices/{id}`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}`,
    expect: RULES.manage,
    targeted: true,
    prepare: (t, db) => db.update(s.mdOffices).set({ deletedAt: null }).where(eq(s.mdOffices.id, t.officeId)),
  },
  {
    method: 'PUT',
    path: `${v1}/md-offices/{id}/comm-prefs`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}/comm-prefs`,
    body: () => ({ communicationMode: 'email', paHandling: 'PAViaMDDash', refillRequestOption: 'eRx', notOnboarded: false }),
    expect: RULES.practice,
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/md-offices/{id}/staff`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}/staff`,
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/md-offices/{id}/staff`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}/staff`,
    body: (_f, _w, t) => ({ mdStaffId: t.staffId }),
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'DELETE',
    path: `${v1}/md-offices/{id}/staff/{staffId}`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}/staff/${t.staffId}`,
    prepare: (t, db) => db.insert(s.officeMembers).values({ mdOfficeId: t.officeId, mdStaffId: t.staffId }).onConflictDoNothing(),
    expect: RULES.manage,
    targeted: true,
  },
  { method: 'GET', path: `${v1}/staff`, url: () => `${v1}/staff`, expect: RULES.provider },
  {
    method: 'GET',
    path: `${v1}/staff/{id}`,
    url: (_f, _w, t) => `${v1}/staff/${t.staffId}`,
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'PUT',
    path: `${v1}/md-staff/{id}`,
    url: (_f, _w, t) => `${v1}/md-staff/${t.staffId}`,
    body: () => ({ contactAddresses: [] }),
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'DELETE',
    path: `${v1}/md-staff/{id}`,
    url: (_f, _w, t) => `${v1}/md-staff/${t.staffId}`,
    prepare: (t, db) => db.update(s.mdStaff).set({ deletedAt: null }).where(eq(s.mdStaff.id, t.staffId)),
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'PUT',
    path: `${v1}/md-partner/{id}/comm-prefs`,
    url: (_f, _w, t) => `${v1}/md-partner/${t.staffId}/comm-prefs`,
    body: () => ({ communicationMode: 'email', emailOptIn: 'email' }),
    expect: RULES.manage,
    targeted: true,
  },
  { method: 'GET', path: `${v1}/users/{userId}/practices`, url: (f, w) => `${u(f, w)}/practices`, expect: RULES.everyone },
  { method: 'GET', path: `${v1}/sales-list`, url: () => `${v1}/sales-list`, expect: RULES.provider },
  { method: 'GET', path: `${v1}/zip-info/{zip}`, url: () => `${v1}/zip-info/43215`, expect: RULES.everyone },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/verify-address`,
    url: (f, w) => `${u(f, w)}/verify-address`,
    body: () => ({ address1: '1 Main St', city: 'Columbus', state: 'OH', zip: '43215' }),
    expect: RULES.everyone,
  },
  { method: 'GET', path: `${v1}/accounts`, url: () => `${v1}/accounts`, expect: (w) => yes(ADMINS.includes(w)) },
  {
    method: 'POST',
    path: `${v1}/accounts`,
    url: () => `${v1}/accounts`,
    body: (_f, w) => ({ userName: 'Matrix Person', email: `matrix.${w}@demo.hcp`, role: 'provider.sales', mdOfficeId: '' }),
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'PUT',
    path: `${v1}/accounts/{id}`,
    url: (_f, _w, t) => `${v1}/accounts/${t.accountId}`,
    body: () => ({ role: 'mdo.user', mfaEnabled: false, disabled: false }),
    expect: RULES.admins,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/accounts/{id}/reset-mfa`,
    url: (_f, _w, t) => `${v1}/accounts/${t.accountId}/reset-mfa`,
    expect: RULES.admins,
    targeted: true,
  },
  { method: 'GET', path: `${v1}/drug-catalogue`, url: () => `${v1}/drug-catalogue?searchText=xif`, expect: RULES.prescribers },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/prescriptions`,
    url: (f, w) => `${u(f, w)}/prescriptions`,
    body: (f) => newPrescriptionBody(f),
    // For an existing patient: the reach matrix gives this patient id its foreign values.
    altBody: (f, _w, t) => prescriptionBodyFor(f, t),
    expect: RULES.prescribers,
  },
  {
    // A controlled substance's signing (issue 48): a plain product here is "not controlled" (409), reached.
    method: 'POST',
    path: `${v1}/users/{userId}/prescriptions/epcs-signing`,
    url: (f, w) => `${u(f, w)}/prescriptions/epcs-signing`,
    body: (f) => newPrescriptionBody(f),
    altBody: (f, _w, t) => prescriptionBodyFor(f, t),
    expect: RULES.prescribers,
  },
  {
    method: 'POST',
    path: `${v1}/epcs-signings/{signingId}/prescribe`,
    url: () => `${v1}/epcs-signings/00000000-0000-4000-8000-000000000000/prescribe`,
    body: () => ({ stepUp: { currentPassword: 'not-the-password', totpCode: '000000' } }),
    expect: () => 404,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/prescription-draft`,
    url: (f, w) => `${u(f, w)}/prescription-draft`,
    expect: RULES.prescribers,
  },
  {
    method: 'PUT',
    path: `${v1}/users/{userId}/prescription-draft`,
    url: (f, w) => `${u(f, w)}/prescription-draft`,
    body: () => ({ draft: { sig: 'Take 1 daily' } }),
    expect: RULES.prescribers,
  },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/prescription-draft`,
    url: (f, w) => `${u(f, w)}/prescription-draft`,
    expect: RULES.prescribers,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/appeal-auth`,
    url: (f, w) => `${u(f, w)}/appeal-auth`,
    body: (f) => ({ prescriptionId: f.ownAppealRx }),
    expect: RULES.ownAppealPractice,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/practice-workload`,
    url: (f, w) => `${u(f, w)}/practice-workload`,
    expect: RULES.provider,
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/support-access`,
    url: (f, w) => `${u(f, w)}/support-access`,
    expect: RULES.provider,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/support-access`,
    url: (f, w) => `${u(f, w)}/support-access`,
    body: (_f, _w, t) => ({ mdOfficeId: t.officeId, reason: 'Matrix: checking who may open it.', minutes: 5 }),
    expect: RULES.manage,
    targeted: true,
  },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/support-access`,
    url: (f, w) => `${u(f, w)}/support-access`,
    expect: RULES.provider,
  },
  {
    method: 'GET',
    path: `${v1}/integration-clients`,
    url: () => `${v1}/integration-clients`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'POST',
    path: `${v1}/integration-clients`,
    url: () => `${v1}/integration-clients`,
    body: (_f, w) => ({ name: `Matrix Pharmacy ${w}`, jwks: MATRIX_JWKS, scopes: ['system/Task.write', 'system/*.read'] }),
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'DELETE',
    path: `${v1}/integration-clients/{id}`,
    url: (f) => `${v1}/integration-clients/${f.integrationClientId}`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    // A fax notice's link opens for the practice's own people only (not a support window: it reads, it was not sent).
    method: 'POST',
    path: `${v1}/users/{userId}/notice-links/redeem`,
    url: (f, w) => `${u(f, w)}/notice-links/redeem`,
    body: (_f, _w, t) => ({ code: t.noticeCode }),
    expect: (w, t) => yes(member(w, t)),
  },
  {
    // Reached by everyone signed in: 406 here, since the matrix does not ask for an event stream.
    method: 'GET',
    path: `${v1}/users/{userId}/live-updates`,
    url: (f, w) => `${u(f, w)}/live-updates`,
    expect: RULES.everyone,
  },
  {
    method: 'GET',
    path: `${v1}/webhook-endpoints`,
    url: () => `${v1}/webhook-endpoints`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'POST',
    path: `${v1}/webhook-endpoints`,
    url: () => `${v1}/webhook-endpoints`,
    body: (_f, w) => ({ url: `https://pharmacy.example/hooks/${w}`, events: ['refill.authorized'] }),
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'PATCH',
    path: `${v1}/webhook-endpoints/{id}`,
    url: (f) => `${v1}/webhook-endpoints/${f.webhookEndpointId}`,
    body: () => ({ description: 'Matrix', enabled: false }),
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'POST',
    path: `${v1}/webhook-endpoints/{id}/rotate-secret`,
    url: (f) => `${v1}/webhook-endpoints/${f.webhookEndpointId}/rotate-secret`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'GET',
    path: `${v1}/webhook-endpoints/{id}/deliveries`,
    url: (f) => `${v1}/webhook-endpoints/${f.webhookEndpointId}/deliveries?status=dead`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'POST',
    path: `${v1}/webhook-endpoints/{id}/deliveries/{deliveryId}/redeliver`,
    url: (f) => `${v1}/webhook-endpoints/${f.webhookEndpointId}/deliveries/${f.webhookDeliveryId}/redeliver`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  {
    method: 'POST',
    path: `${v1}/webhook-endpoints/{id}/redeliver-failed`,
    url: (f) => `${v1}/webhook-endpoints/${f.webhookEndpointId}/redeliver-failed`,
    expect: (w) => yes(ADMINS.includes(w)),
  },
  // Standing rules (issue 23): the practice's own people read them; only its prescribers make or change them.
  {
    method: 'GET',
    path: `${v1}/users/{userId}/standing-rules`,
    url: (f, w) => `${u(f, w)}/standing-rules`,
    expect: RULES.everyone,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/standing-rules/preview`,
    url: (f, w) => `${u(f, w)}/standing-rules/preview`,
    body: (_f, _w, t) => ({ rule: ruleBody(t) }),
    expect: RULES.sign,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/standing-rules`,
    url: (f, w) => `${u(f, w)}/standing-rules`,
    body: (_f, _w, t) => ruleBody(t),
    expect: RULES.sign,
    targeted: true,
  },
  {
    method: 'PUT',
    path: `${v1}/users/{userId}/standing-rules/{id}`,
    url: (f, w, t) => `${u(f, w)}/standing-rules/${t.officeId}`,
    body: (_f, _w, t) => ({ rule: ruleBody(t), version: 0 }),
    expect: RULES.sign,
    targeted: true,
    prepare: (t, db) => keepMatrixRule(db, t),
  },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/standing-rules/{id}`,
    url: (f, w, t) => `${u(f, w)}/standing-rules/${t.officeId}`,
    expect: RULES.sign,
    targeted: true,
    prepare: (t, db) => keepMatrixRule(db, t),
  },
  {
    method: 'GET',
    path: `${v1}/users/{userId}/coverage`,
    url: (f, w) => `${u(f, w)}/coverage`,
    expect: RULES.everyone,
  },
  {
    method: 'PUT',
    path: `${v1}/users/{userId}/coverage/policy`,
    url: (f, w) => `${u(f, w)}/coverage/policy`,
    body: (_f, _w, t) => ({ practiceId: t.officeId, policy: 'anyPrescriber' }),
    expect: RULES.prescriberSetting,
    targeted: true,
  },
  {
    method: 'POST',
    path: `${v1}/users/{userId}/coverage`,
    url: (f, w) => `${u(f, w)}/coverage`,
    body: (_f, _w, t) => coverageBody(t),
    expect: RULES.prescriberSetting,
    targeted: true,
  },
  {
    method: 'DELETE',
    path: `${v1}/users/{userId}/coverage/{id}`,
    url: (f, w, t) => `${u(f, w)}/coverage/${t.officeId}`,
    expect: RULES.prescriberSetting,
    targeted: true,
    prepare: (t, db) => keepMatrixCoverage(db, t),
  },
  {
    method: 'GET',
    path: `${v1}/md-offices/{id}/support-access`,
    url: (_f, _w, t) => `${v1}/md-offices/${t.officeId}/support-access`,
    expect: RULES.practice,
    targeted: true,
  },
  // Issue 49, the audit trail: the tenant's privacy officers only (the demo admin; the support admin is not one).
  // Everyone else finds nothing (404), as for any record outside their reach; a patient, person or window of another
  // tenant is not found either.
  {
    method: 'POST',
    path: `${v1}/audit-trail/patient-search`,
    url: () => `${v1}/audit-trail/patient-search`,
    body: () => ({ search: 'Matrix' }),
    expect: (w) => yes(w === 'admin'),
  },
  { method: 'GET', path: `${v1}/audit-trail/users`, url: () => `${v1}/audit-trail/users`, expect: (w) => yes(w === 'admin') },
  {
    method: 'GET',
    path: `${v1}/audit-trail/patient-access`,
    url: (_f, _w, t) => `${v1}/audit-trail/patient-access?patientId=${t.patientId}&from=2026-01-01&to=2026-12-31`,
    expect: (w, t) => yes(w === 'admin' && t !== 'otherTenant'),
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/audit-trail/patient-access/export`,
    url: (_f, _w, t) =>
      `${v1}/audit-trail/patient-access/export?patientId=${t.patientId}&from=2026-01-01&to=2026-12-31&format=csv`,
    expect: (w, t) => yes(w === 'admin' && t !== 'otherTenant'),
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/audit-trail/user-activity`,
    url: (_f, _w, t) => `${v1}/audit-trail/user-activity?userId=${t.accountId}&from=2026-01-01&to=2026-12-31`,
    expect: (w, t) => yes(w === 'admin' && t !== 'otherTenant'),
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/audit-trail/user-activity/export`,
    url: (_f, _w, t) => `${v1}/audit-trail/user-activity/export?userId=${t.accountId}&from=2026-01-01&to=2026-12-31&format=fhir`,
    expect: (w, t) => yes(w === 'admin' && t !== 'otherTenant'),
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/audit-trail/support-windows`,
    url: () => `${v1}/audit-trail/support-windows?from=2026-10-01&to=2026-12-31`,
    expect: (w) => yes(w === 'admin'),
  },
  {
    method: 'POST',
    path: `${v1}/audit-trail/support-windows/{windowId}/review`,
    url: (f) => `${v1}/audit-trail/support-windows/${f.supportWindowId}/review`,
    body: () => ({ note: 'Matrix: checked the reason with the practice.' }),
    expect: (w) => yes(w === 'admin'),
  },
  {
    method: 'GET',
    path: `${v1}/audit-trail/unusual-access`,
    url: () => `${v1}/audit-trail/unusual-access?from=2026-10-01&to=2026-12-31`,
    expect: (w) => yes(w === 'admin'),
  },
  {
    method: 'POST',
    path: `${v1}/audit-trail/findings/review`,
    url: () => `${v1}/audit-trail/findings/review`,
    body: (_f, _w, t) => ({ key: `afterHours:${t.accountId}:2026-11-21`, note: 'Matrix: on call that night.' }),
    expect: (w, t) => yes(w === 'admin' && t !== 'otherTenant'),
    targeted: true,
  },
  {
    method: 'GET',
    path: `${v1}/audit-trail/privacy-officers`,
    url: () => `${v1}/audit-trail/privacy-officers`,
    expect: (w) => yes(w === 'admin'),
  },
  {
    method: 'PUT',
    path: `${v1}/audit-trail/privacy-officers/{userId}`,
    url: (f) => `${v1}/audit-trail/privacy-officers/${f.me('support')}`,
    body: () => ({ privacyOfficer: false }),
    expect: (w) => yes(w === 'admin'),
  },
  { method: 'POST', path: `${v1}/audit-trail/verify`, url: () => `${v1}/audit-trail/verify`, expect: (w) => yes(w === 'admin') },
];

/**
 * Routes outside the portal session: reset by e-mailed token, the brand of the page, and the appeal calls
 * (their own appeal-scoped token; tested in appeals.test.ts).
 */
export const PUBLIC = new Set([
  'PUT /api/mdo/v1/update-password',
  'GET /api/mdo/v1/tenant',
  'POST /api/mdo/v1/appeal-auth',
  'GET /api/mdo/v1/appeal/{id}',
  'POST /api/mdo/v1/appeal/{id}/save',
  'POST /api/mdo/v1/appeal/{id}/file-upload',
  'POST /api/mdo/v1/appeal/{id}/submit',
  'GET /api/mdo/v1/appeal/{id}/files/{slot}',
  'DELETE /api/mdo/v1/appeal/{id}/files/{slot}',
  'GET /api/mdo/v1/appeal/{id}/earlier-files',
  'POST /api/mdo/v1/appeal/{id}/reuse-file',
  'GET /api/pharmacy/v1/appeal-files/{fileId}',
]);

async function idsOf(d: Database, officeId: string, accountEmail: string): Promise<Ids> {
  const rxOf = async (condition: Parameters<typeof and>[0]) => {
    const [row] = await d
      .select({ id: s.prescriptions.id })
      .from(s.prescriptions)
      .where(and(eq(s.prescriptions.mdOfficeId, officeId), condition))
      .limit(1);
    return row?.id as string;
  };
  // A staff member without a portal account: the rows that remove or delete them must not end a matrix user's
  // sessions (taking someone off a practice ends theirs, issue 42).
  let [member] = await d
    .select({ id: s.mdStaff.id })
    .from(s.mdStaff)
    .innerJoin(s.officeMembers, eq(s.officeMembers.mdStaffId, s.mdStaff.id))
    .where(
      and(
        eq(s.officeMembers.mdOfficeId, officeId),
        eq(s.mdStaff.role, 'STAFF'),
        sql`not exists (select 1 from users u where u.md_staff_id = ${s.mdStaff.id})`,
      ),
    )
    .orderBy(s.mdStaff.id)
    .limit(1);
  if (!member) {
    [member] = await d
      .insert(s.mdStaff)
      .values({
        tenantId: sql`(select tenant_id from md_offices where id = ${officeId}::uuid)`,
        firstName: 'Matrix',
        lastName: 'Staff',
        role: 'STAFF',
      })
      .returning({ id: s.mdStaff.id });
    await d.insert(s.officeMembers).values({ mdOfficeId: officeId, mdStaffId: member?.id as string });
  }
  const prescribers = await d
    .select({ id: s.mdStaff.id })
    .from(s.mdStaff)
    .innerJoin(s.officeMembers, eq(s.officeMembers.mdStaffId, s.mdStaff.id))
    .where(and(eq(s.officeMembers.mdOfficeId, officeId), inArray(s.mdStaff.role, ['MD', 'DO', 'PA', 'NP', 'ARNP'])))
    .orderBy(s.mdStaff.id)
    .limit(2);
  if (prescribers.length < 2) throw new Error(`the demo seed has fewer than two prescribers at practice ${officeId}`);
  const [patient] = await d.select().from(s.patients).where(eq(s.patients.mdOfficeId, officeId)).limit(1);
  const [mention] = await d.select().from(s.commentMentions).where(eq(s.commentMentions.mdOfficeId, officeId)).limit(1);
  const [account] = await d.select({ id: s.users.id }).from(s.users).where(eq(s.users.email, accountEmail));
  const noticeCode = Array.from({ length: NOTICE_CODE_LENGTH }, () => NOTICE_CODE_ALPHABET[randomInt(32)]).join('');
  await d
    .insert(s.noticeLinks)
    .values({ tokenHash: sha256(noticeCode), mdOfficeId: officeId, expiresAt: new Date(Date.now() + 86_400_000) });
  const ids: Ids = {
    officeId,
    staffId: member?.id as string,
    prescriberIds: prescribers.map((p) => p.id) as [string, string],
    accountId: account?.id as string,
    patientId: patient?.id as string,
    mentionId: mention?.id as string,
    noticeCode,
    rx: {
      refill: await rxOf(eq(s.prescriptions.needsRefillAuth, true)),
      altMed: await rxOf(isNotNull(s.prescriptions.substitutionStatus)),
      chartNotes: await rxOf(
        inArray(s.prescriptions.priorAuthStatus, ['PRIOR_AUTH_CHART_NOTES_NEEDED', 'PRIOR_AUTH_ICD10_NEEDED']),
      ),
      any: await rxOf(undefined),
    },
  };
  for (const [name, value] of Object.entries({ ...ids, ...ids.rx })) {
    if (!value) throw new Error(`the demo seed has no ${name} at practice ${officeId} for the matrix`);
  }
  return ids;
}

/** Opens the support user's window on Morgan Family Medicine (again, after a row that moved or ended it). */
export async function openSupportWindow(t: TestApp, tokens: Record<Who, Tokens>, fixture: Fixture) {
  const res = await injectAs(t.app, tokens.support, {
    method: 'POST',
    url: `${v1}/users/${tokens.support.userID}/support-access`,
    payload: { mdOfficeId: fixture.ids.own.officeId, reason: 'Matrix: helping Morgan Family Medicine.', minutes: 60 },
  });
  if (res.statusCode !== 201) throw new Error(`could not open support access: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

/**
 * Signs every kind of user in and reads the ids of the three target practices from the demo seed. Dr. Patel
 * (another practice's prescriber) signs in without the e-mailed code here; a second admin holds the support
 * window, so the plain admin stays an admin without one.
 */
export async function setUpRouteTable(t: TestApp): Promise<{ tokens: Record<Who, Tokens>; fixture: Fixture }> {
  const d = t.database.db;
  await d.update(s.users).set({ mfaEnabled: false }).where(eq(s.users.email, 'dr.patel@demo.hcp'));
  await d.execute(sql`insert into users (tenant_id, email, role, user_type, display_name, password_hash, md_office_id, md_staff_id)
    select tenant_id, 'support.admin@demo.hcp', role, user_type, 'Sam Support', password_hash, null, null
    from users where email = 'admin@demo.hcp'`);
  const [prescriber, staff, otherPrescriber, vam, otherTenant, sales, admin, support] = await Promise.all([
    signIn(t.app, 'dr.morgan@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
    signIn(t.app, 'dr.patel@demo.hcp'),
    signIn(t.app, 'vam.staff@demo.hcp'),
    signIn(t.app, 'dr.kim@harrow.demo.hcp', 'harrow.localhost'),
    signIn(t.app, 'sales@demo.hcp'),
    signIn(t.app, 'admin@demo.hcp'),
    signIn(t.app, 'support.admin@demo.hcp'),
  ]);
  const tokens = { prescriber, staff, otherPrescriber, vam, otherTenant, sales, admin, support } as Record<Who, Tokens>;
  const officeOf = async (email: string) =>
    (await d.select({ id: s.users.mdOfficeId }).from(s.users).where(eq(s.users.email, email)))[0]?.id as string;
  const morganStaffId = (await d.select().from(s.users).where(eq(s.users.email, 'dr.morgan@demo.hcp')))[0]?.mdStaffId as string;
  const [ownAppeal] = await d
    .select({ id: s.prescriptions.id })
    .from(s.prescriptions)
    .where(and(eq(s.prescriptions.hcpActionRequired, true), eq(s.prescriptions.prescriberId, morganStaffId)))
    .limit(1);
  const tenantId = (await d.select().from(s.users).where(eq(s.users.email, 'admin@demo.hcp')))[0]?.tenantId as string;
  const own = await idsOf(d, await officeOf('dr.morgan@demo.hcp'), 'staff.lee@demo.hcp');
  const fixture: Fixture = {
    ...(await webhookFixture(d, tenantId, own.rx.any)),
    me: (w) => tokens[w].userID,
    ids: {
      own,
      other: await idsOf(d, await officeOf('dr.patel@demo.hcp'), 'dr.patel@demo.hcp'),
      otherTenant: await idsOf(d, await officeOf('dr.kim@harrow.demo.hcp'), 'dr.kim@harrow.demo.hcp'),
    },
    ownAppealRx: ownAppeal?.id as string,
    productId: ((await d.select().from(s.drugProducts).where(eq(s.drugProducts.isControlled, false)).limit(1))[0]?.id ??
      '') as string,
    integrationClientId: (
      await registerClient(d, {
        name: 'Matrix Pharmacy',
        jwks: MATRIX_JWKS,
        scopes: ['system/Task.write'],
        tenantId,
        createdBy: null,
      })
    ).id,
    supportWindowId: '',
  };
  fixture.supportWindowId = await openSupportWindow(t, tokens, fixture);
  return { tokens, fixture };
}

/** A webhook endpoint of a tenant with one dead delivery (of a decision on one of its prescriptions). */
export async function webhookFixture(d: Database, tenantId: string, prescriptionId: string) {
  const [endpoint] = await d
    .insert(s.webhookEndpoints)
    .values({ tenantId, url: 'https://pharmacy.example/matrix', events: ['refill.denied'], secret: 'whsec_bWF0cml4' })
    .returning();
  const [message] = await d
    .insert(s.outbox)
    .values({ channel: 'webhook', prescriptionId, payload: {}, eventType: 'refill.denied', dispatchedAt: new Date() })
    .returning();
  const [delivery] = await d
    .insert(s.webhookDeliveries)
    .values({
      endpointId: endpoint?.id as string,
      outboxId: message?.id as string,
      eventSeq: message?.seq as number,
      eventType: 'refill.denied',
      prescriptionId,
      body: '{}',
      status: 'dead',
    })
    .returning();
  return { webhookEndpointId: endpoint?.id as string, webhookDeliveryId: delivery?.id as string };
}
