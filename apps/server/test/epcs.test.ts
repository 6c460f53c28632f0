/**
 * Issue 48, EPCS (decision 0059), end to end through the app on the real database: DEA registrations (check digit,
 * expiry), the two-person grant (nobody approves their own entry or their own permission; the approver a registrant;
 * two factors each), signing a controlled refill (legal text, two factors now, the content signed and verifiable by
 * the published key, anything changed after it was shown refused, the schedule's limits, an expired or
 * wrong-schedule registration, a colleague without their own permission, never by the ordinary authorization), and
 * the practice's report of signatures and incidents. Second factors are authenticator-app codes computed here on the
 * app's injected clock; passkeys are exercised in the browser journey.
 */
import {
  DEA_SCHEDULES,
  EPCS_KEY_ID_EXTENSION,
  EPCS_LEGAL_TEXT,
  EPCS_MESSAGES,
  type EpcsContent,
  type Tokens,
} from '@hcp/contract';
import { eq, sql } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as s from '../src/db/schema.ts';
import { decisionOutputs } from '../src/features/fhir/mapping/answer.ts';
import { verifyEpcsSignature } from '../src/lib/epcs-signature.ts';
import { DEMO_PASSWORD } from '../src/seed/index.ts';
import { buildTestApp, type TestApp } from './support/app.ts';
import { injectAs, signIn } from './support/auth.ts';

let t: TestApp;
let at = Date.UTC(2026, 11, 3, 15, 0, 5);
const db = () => t.database.db;
const rows = async <T>(query: ReturnType<typeof sql>) => ((await db().execute(query)) as unknown as { rows: T[] }).rows;

let morgan: Tokens;
let second: Tokens;
let lee: Tokens;
let practiceId = '';
let practiceState = '';
let morganStaff = '';
let secondStaff = '';
const secrets = new Map<string, string>();

/** A fresh app code for the user: the clock moves a step first, as each step is taken once. */
function code(user: Tokens) {
  at += 30_000;
  const secret = secrets.get(user.userID) as string;
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at });
}
const stepUp = (user: Tokens, password = DEMO_PASSWORD) => ({ currentPassword: password, totpCode: code(user) });
const call = (user: Tokens, method: 'GET' | 'POST', url: string, payload?: unknown) =>
  injectAs(t.app, user, { method, url, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });

async function addApp(user: Tokens) {
  const base = `/api/mdo/v1/users/${user.userID}/sign-in-factors`;
  const setup = (await call(user, 'POST', `${base}/authenticator-app`)).json();
  secrets.set(user.userID, setup.secret.replace(/\s/g, ''));
  expect((await call(user, 'POST', `${base}/authenticator-app/confirm`, { code: code(user) })).statusCode).toBe(200);
}

/** A DEA number with a good check digit for the given six digits. */
function dea(prefix: string, six: string) {
  const d = [...six].map(Number);
  const check = ((d[0] ?? 0) + (d[2] ?? 0) + (d[4] ?? 0) + 2 * ((d[1] ?? 0) + (d[3] ?? 0) + (d[5] ?? 0))) % 10;
  return `${prefix}${six}${check}`;
}
const registration = (number: string, extra: Record<string, unknown> = {}) => ({
  number,
  schedules: ['II', 'III', 'IV', 'V'],
  state: practiceState,
  expiresOn: '2028-06-30',
  ...extra,
});

beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(at) });
  const [row] = await db()
    .select({ officeId: s.users.mdOfficeId, staffId: s.users.mdStaffId })
    .from(s.users)
    .where(eq(s.users.email, 'dr.morgan@demo.hcp'));
  practiceId = row?.officeId as string;
  morganStaff = row?.staffId as string;
  practiceState = (await rows<{ state: string }>(sql`select state from md_offices where id = ${practiceId}::uuid`))[0]
    ?.state as string;
  const colleague = await rows<{ id: string }>(sql`select d.id from md_staff d join office_members m on m.md_staff_id = d.id
    where m.md_office_id = ${practiceId}::uuid and d.role in ('MD', 'DO', 'PA', 'NP', 'ARNP') and d.id <> ${morganStaff}::uuid
    order by d.id limit 1`);
  secondStaff = colleague[0]?.id as string;
  await db().execute(sql`insert into users (tenant_id, email, role, user_type, display_name, password_hash, md_office_id, md_staff_id)
    select tenant_id, 'dr.epcs-second@demo.hcp', role, user_type, 'Dr. Second', password_hash, md_office_id, ${secondStaff}::uuid
    from users where email = 'dr.morgan@demo.hcp'`);
  await db().update(s.users).set({ mfaEnabled: false }).where(eq(s.users.email, 'dr.morgan@demo.hcp'));
  [morgan, second, lee] = await Promise.all([
    signIn(t.app, 'dr.morgan@demo.hcp'),
    signIn(t.app, 'dr.epcs-second@demo.hcp'),
    signIn(t.app, 'staff.lee@demo.hcp'),
  ]);
  await addApp(morgan);
  await addApp(second);
  await addApp(lee);
});
afterAll(() => t.close());

describe('DEA registrations', () => {
  it('refuses a wrong check digit, a malformed number and a past expiry on their fields; staff have none', async () => {
    const base = `/api/mdo/v1/users/${morgan.userID}/epcs/registrations`;
    const good = dea('BM', '123456');
    const wrongDigit = `${good.slice(0, 8)}${(Number(good.at(-1)) + 1) % 10}`;
    const bad = await call(morgan, 'POST', base, registration(wrongDigit));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.details).toEqual([{ path: 'body.number', message: EPCS_MESSAGES.deaCheckDigit }]);
    const malformed = await call(morgan, 'POST', base, registration('B12345678'));
    expect(malformed.json().error.details).toEqual([{ path: 'body.number', message: EPCS_MESSAGES.deaFormat }]);
    const past = await call(morgan, 'POST', base, registration(good, { expiresOn: '2026-12-02' }));
    expect(past.statusCode).toBe(400);
    expect(past.json().error.details).toEqual([{ path: 'body.expiresOn', message: EPCS_MESSAGES.expiresPast }]);
    const staff = await call(lee, 'POST', `/api/mdo/v1/users/${lee.userID}/epcs/registrations`, registration(good));
    expect(staff.statusCode).toBe(403);
    expect(staff.json().error.message).toBe(EPCS_MESSAGES.notPrescriber);
  });

  it('keeps a registration typed with spaces and in any case, once', async () => {
    const base = `/api/mdo/v1/users/${morgan.userID}/epcs/registrations`;
    const number = dea('BM', '123456');
    const added = await call(
      morgan,
      'POST',
      base,
      registration(` ${number.toLowerCase().slice(0, 4)} ${number.slice(4)}`, { schedules: ['IV', 'II', 'III', 'V'] }),
    );
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({ number, schedules: [...DEA_SCHEDULES], state: practiceState, expiresOn: '2028-06-30' });
    expect((await call(morgan, 'POST', base, registration(number))).statusCode).toBe(409);
    // Someone else's registration is not found.
    const theirs = await call(second, 'POST', `/api/mdo/v1/users/${second.userID}/epcs/registrations/${added.json().id}/remove`);
    expect(theirs.statusCode).toBe(404);
  });
});

describe('permission to sign controlled substances: two people', () => {
  let changeId = '';
  it('one person enters a grant with two factors; nothing is granted until a second approves', async () => {
    const noFactor = await call(morgan, 'POST', '/api/mdo/v1/epcs-changes', {
      practiceId,
      hcpId: morganStaff,
      action: 'grant',
      stepUp: { currentPassword: DEMO_PASSWORD },
    });
    expect(noFactor.statusCode).toBe(400);
    const entered = await call(morgan, 'POST', '/api/mdo/v1/epcs-changes', {
      practiceId,
      hcpId: morganStaff,
      action: 'grant',
      stepUp: stepUp(morgan),
    });
    expect(entered.statusCode).toBe(200);
    changeId = entered.json().changeId;
    const again = await call(lee, 'POST', '/api/mdo/v1/epcs-changes', {
      practiceId,
      hcpId: morganStaff,
      action: 'grant',
      stepUp: stepUp(lee),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(EPCS_MESSAGES.alreadyPending);
    const overview = (await call(morgan, 'GET', `/api/mdo/v1/users/${morgan.userID}/epcs`)).json();
    const mine = overview.practices
      .find((p: { id: string }) => p.id === practiceId)
      .prescribers.find((p: { hcpId: string }) => p.hcpId === morganStaff);
    expect(mine).toMatchObject({
      isSelf: true,
      permission: 'none',
      hasCurrentRegistration: true,
      pending: { action: 'grant', mayApprove: false },
    });
  });

  it('refuses approval by its enterer, by staff, by a prescriber without a registration, and without the check confirmed', async () => {
    const approve = (user: Tokens, body: Record<string, unknown>) =>
      call(user, 'POST', `/api/mdo/v1/epcs-changes/${changeId}/approve`, body);
    const own = await approve(morgan, { registrationVerified: true, stepUp: stepUp(morgan) });
    expect(own.statusCode).toBe(403);
    expect(own.json().error.message).toBe(EPCS_MESSAGES.sameApprover);
    const staff = await approve(lee, { registrationVerified: true, stepUp: stepUp(lee) });
    expect(staff.json().error.message).toBe(EPCS_MESSAGES.approverNotRegistrant);
    const unregistered = await approve(second, { registrationVerified: true, stepUp: stepUp(second) });
    expect(unregistered.statusCode).toBe(403);
    expect(unregistered.json().error.message).toBe(EPCS_MESSAGES.approverNotRegistrant);
    await call(second, 'POST', `/api/mdo/v1/users/${second.userID}/epcs/registrations`, registration(dea('FS', '654321')));
    const unchecked = await approve(second, { stepUp: stepUp(second) });
    expect(unchecked.statusCode).toBe(400);
    const wrongPassword = await approve(second, { registrationVerified: true, stepUp: stepUp(second, 'not the password') });
    expect(wrongPassword.statusCode).toBe(400);
    expect(wrongPassword.json().error.details).toEqual([{ path: 'body.stepUp', message: EPCS_MESSAGES.wrongFactor }]);
    expect(
      (await rows<{ n: number }>(sql`select count(*)::int as n from epcs_changes where approved_at is not null`))[0]?.n,
    ).toBe(0);
  });

  it('a registrant of the practice approves with two factors; both people and factors are recorded', async () => {
    const ok = await call(second, 'POST', `/api/mdo/v1/epcs-changes/${changeId}/approve`, {
      registrationVerified: true,
      stepUp: stepUp(second),
    });
    expect(ok.statusCode).toBe(200);
    const [row] = await db().select().from(s.epcsChanges).where(eq(s.epcsChanges.id, changeId));
    expect(row).toMatchObject({
      enteredBy: morgan.userID,
      enteredFactor: 'totp',
      approvedBy: second.userID,
      approvedFactor: 'totp',
      registrationVerified: true,
    });
    // Approved once: a second approval finds nothing waiting.
    expect(
      (
        await call(second, 'POST', `/api/mdo/v1/epcs-changes/${changeId}/approve`, {
          registrationVerified: true,
          stepUp: stepUp(second),
        })
      ).statusCode,
    ).toBe(404);
  });

  it('nobody approves a change of their own permission', async () => {
    const entered = await call(lee, 'POST', '/api/mdo/v1/epcs-changes', {
      practiceId,
      hcpId: secondStaff,
      action: 'grant',
      stepUp: stepUp(lee),
    });
    expect(entered.statusCode).toBe(200);
    const own = await call(second, 'POST', `/api/mdo/v1/epcs-changes/${entered.json().changeId}/approve`, {
      registrationVerified: true,
      stepUp: stepUp(second),
    });
    expect(own.json().error.message).toBe(EPCS_MESSAGES.ownGrant);
    expect((await call(lee, 'POST', `/api/mdo/v1/epcs-changes/${entered.json().changeId}/decline`)).statusCode).toBe(200);
  });
});

describe('signing a controlled refill', () => {
  let rxId = '';
  let scheduleTwoId = '';
  beforeAll(async () => {
    const requests = await rows<{ id: string }>(sql`select rx.id from prescriptions rx
      where rx.md_office_id = ${practiceId}::uuid and rx.needs_refill_auth and rx.refill_postponed_until is null
      order by rx.id limit 2`);
    [rxId, scheduleTwoId] = requests.map((r) => r.id) as [string, string];
    await db().execute(sql`update prescriptions set dispensed_ndc = '00009-0029-01', prescriber_id = ${morganStaff}::uuid,
      prescribed_at = '2026-10-01 09:00', sig = 'Take 1 tablet by mouth at bedtime as needed' where id = ${rxId}::uuid`);
    await db().execute(sql`update prescriptions set dispensed_ndc = '00406-0123-01', prescriber_id = ${morganStaff}::uuid
      where id = ${scheduleTwoId}::uuid`);
  });
  const prepare = (user: Tokens, id = rxId, refills = 2) =>
    call(user, 'POST', `/api/mdo/v1/prescriptions/${id}/epcs-signing`, {
      refills,
      sig: 'Take 1 tablet by mouth at bedtime as needed',
    });

  it('is the only way: the ordinary authorization refuses a controlled substance', async () => {
    const erx = await call(morgan, 'POST', `/api/mdo/v1/prescriptions/${rxId}/refills-authorized/erx`, {});
    expect(erx.statusCode).toBe(409);
    expect(erx.json().error.message).toBe(EPCS_MESSAGES.needsEpcs);
    const fax = await call(morgan, 'POST', `/api/mdo/v1/prescriptions/${rxId}/refills-authorized/fax`, {
      refills: 1,
      sig: 'x',
      senderName: 'Dr',
    });
    expect(fax.json().error.message).toBe(EPCS_MESSAGES.needsEpcs);
  });

  it('shows what is signed with the legal text; refuses Schedule II refills and more than five', async () => {
    expect((await prepare(morgan, scheduleTwoId)).json().error.message).toBe(EPCS_MESSAGES.scheduleTwoRefill);
    const six = await prepare(morgan, rxId, 6);
    expect(six.statusCode).toBe(400);
    const shown = await prepare(morgan);
    expect(shown.statusCode).toBe(200);
    const body = shown.json();
    expect(body.legalText).toBe(EPCS_LEGAL_TEXT);
    expect(body.factors).toEqual(['totp']);
    expect(body.content).toMatchObject({
      kind: 'refill-authorization',
      prescriptionId: rxId,
      issuedOn: '2026-10-01',
      signedOn: '2026-12-03',
      drug: { name: expect.any(String), schedule: 'IV', ndc: '00009-0029-01' },
      refills: 2,
      prescriber: { dea: dea('BM', '123456') },
    });
  });

  it('refuses a colleague without their own permission, and a prescriber whose registration lapsed or lacks the schedule', async () => {
    expect((await prepare(second)).json().error.message).toBe(EPCS_MESSAGES.noRights);
    await db()
      .update(s.deaRegistrations)
      .set({ schedules: ['II'] })
      .where(eq(s.deaRegistrations.mdStaffId, morganStaff));
    expect((await prepare(morgan)).json().error.message).toBe(EPCS_MESSAGES.registrationSchedule('IV'));
    await db()
      .update(s.deaRegistrations)
      .set({ schedules: ['II', 'III', 'IV', 'V'], expiresOn: '2026-12-02' })
      .where(eq(s.deaRegistrations.mdStaffId, morganStaff));
    const lapsed = await prepare(morgan);
    expect(lapsed.statusCode).toBe(403);
    expect(lapsed.json().error.message).toBe(EPCS_MESSAGES.registrationExpired);
    await db().update(s.deaRegistrations).set({ expiresOn: '2028-06-30' }).where(eq(s.deaRegistrations.mdStaffId, morganStaff));
  });

  it('refuses a wrong factor and anything changed after it was shown; nothing is signed', async () => {
    const { signingId } = (await prepare(morgan)).json();
    const wrong = await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${signingId}/sign`, {
      stepUp: { currentPassword: DEMO_PASSWORD, totpCode: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    await db().execute(
      sql`update prescriptions set quantity = coalesce(quantity, 0) + 30, version = version + 1 where id = ${rxId}::uuid`,
    );
    const changed = await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${signingId}/sign`, { stepUp: stepUp(morgan) });
    expect(changed.statusCode).toBe(409);
    expect(changed.json().error.message).toBe(EPCS_MESSAGES.changed);
    const [rx] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, rxId));
    expect(rx?.needsRefillAuth).toBe(true);
    expect((await rows<{ n: number }>(sql`select count(*)::int as n from epcs_signings where signed_at is not null`))[0]?.n).toBe(
      0,
    );
  });

  it('signs with two factors: the signature covers the content, verifies by the published key, and goes to the pharmacy', async () => {
    const shown = (await prepare(morgan)).json();
    // Someone else's signing is not theirs to complete.
    expect(
      (await call(second, 'POST', `/api/mdo/v1/epcs-signings/${shown.signingId}/sign`, { stepUp: stepUp(second) })).statusCode,
    ).toBe(404);
    const signed = await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${shown.signingId}/sign`, { stepUp: stepUp(morgan) });
    expect(signed.statusCode).toBe(200);
    const { signature } = signed.json();
    expect(signed.json().undo).toBeUndefined();
    const keys = (await t.app.inject({ method: 'GET', url: '/api/epcs/keys' })).json().keys;
    const key = keys.find((k: { kid: string }) => k.kid === signature.keyId);
    expect(verifyEpcsSignature(shown.content, signature.signature, key)).toBe(true);
    // Anything changed in what was signed no longer verifies.
    const altered: EpcsContent = { ...shown.content, refills: 5 };
    expect(verifyEpcsSignature(altered, signature.signature, key)).toBe(false);
    const [rx] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, rxId));
    expect(rx).toMatchObject({ needsRefillAuth: false, refills: 2 });
    const [message] = await rows<{ payload: { epcs: { content: EpcsContent; signature: string } } }>(
      sql`select o.payload from outbox o join prescription_events e on e.id = o.event_id where e.prescription_id = ${rxId}::uuid order by o.created_at desc limit 1`,
    );
    expect(message?.payload.epcs.signature).toBe(signature.signature);
    expect(verifyEpcsSignature(message?.payload.epcs.content, signature.signature, key)).toBe(true);
    // Used once.
    expect(
      (await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${shown.signingId}/sign`, { stepUp: stepUp(morgan) })).statusCode,
    ).toBe(404);
  });

  it('marks the decision the pharmacy hears (webhook and FHIR Task) with the signed bytes and a signature that verifies', async () => {
    const [event] = await rows<{ type: string; data: Record<string, unknown> }>(
      sql`select type, data from prescription_events where prescription_id = ${rxId}::uuid order by created_at desc limit 1`,
    );
    const outputs = decisionOutputs({
      event: 'refill.authorized',
      timelineType: event?.type ?? '',
      data: event?.data ?? {},
      at: new Date(at),
    });
    const code = (o: (typeof outputs)[number]) => o.type?.coding?.[0]?.code;
    const signedBytes = outputs.find((o) => code(o) === 'epcs-signed-content')?.valueAttachment?.data as string;
    const signature = outputs.find((o) => code(o) === 'epcs-signature')?.valueSignature;
    const kid = signature?.extension?.find((e) => e.url === EPCS_KEY_ID_EXTENSION)?.valueString;
    const key = (await t.app.inject({ method: 'GET', url: '/api/epcs/keys' }))
      .json()
      .keys.find((k: { kid: string }) => k.kid === kid);
    const content = JSON.parse(Buffer.from(signedBytes, 'base64').toString('utf8')) as EpcsContent;
    expect(content).toMatchObject({ prescriptionId: rxId, drug: { schedule: 'IV' }, refills: 2 });
    expect(verifyEpcsSignature(content, Buffer.from(signature?.data as string, 'base64').toString('base64url'), key)).toBe(true);
    // The ordinary decisions carry no EPCS mark.
    const plain = decisionOutputs({
      event: 'refill.authorized',
      timelineType: 'x',
      data: { refills: 1, sig: 'x' },
      at: new Date(at),
    });
    expect(plain.map(code)).toEqual(['channel', 'refills', 'sig']);
  });

  it('reports the day to the practice’s EPCS prescribers: signatures and incidents; not to staff', async () => {
    // The signing was stamped by the test's clock, the incidents by the database's: read each of their days (in the
    // reports' zone) and take the union, so the test holds on any day it runs.
    const zone = 'America/New_York';
    const incidentDays = await rows<{
      day: string;
    }>(sql`select distinct to_char(created_at at time zone ${zone}, 'YYYY-MM-DD') as day
      from audit_log where entity_type = 'epcs' and entity_id = ${practiceId}`);
    const days = [...new Set(['2026-12-03', ...incidentDays.map((d) => d.day)])];
    const urlOf = (day: string) => `/api/mdo/v1/practices/${practiceId}/epcs-report?day=${day}`;
    expect((await call(lee, 'GET', urlOf('2026-12-03'))).statusCode).toBe(403);
    const reports = await Promise.all(days.map(async (day) => (await call(morgan, 'GET', urlOf(day))).json()));
    const signed = reports.flatMap((r) => r.signed);
    expect(signed).toEqual([expect.objectContaining({ dea: dea('BM', '123456'), schedule: 'IV', refills: 2 })]);
    const incidents = reports.flatMap((r) => r.incidents) as { kind: string; detail: string }[];
    expect(incidents.map((i) => i.kind)).toEqual(
      expect.arrayContaining(['access.entered', 'access.approved', 'access.declined', 'authentication.failed', 'sign.refused']),
    );
    expect(incidents.map((i) => i.detail)).toEqual(
      expect.arrayContaining([
        `Signing refused: ${EPCS_MESSAGES.changed}`,
        `Signing refused: ${EPCS_MESSAGES.scheduleTwoRefill}`,
      ]),
    );
  });

  it('takes the report’s day in the reports’ zone: 10 pm in New York is that day there, the next day in UTC', async () => {
    await db().execute(sql`insert into audit_log (actor_user_id, action, entity_type, entity_id, details, created_at)
      values (${morgan.userID}::uuid, 'epcs.sign.refused', 'epcs', ${practiceId}, '{"reason":"zone check"}'::jsonb,
        '2027-03-05 03:00:00+00')`);
    const detailsOn = async (day: string) =>
      (
        (await call(morgan, 'GET', `/api/mdo/v1/practices/${practiceId}/epcs-report?day=${day}`)).json().incidents as {
          detail: string;
        }[]
      ).map((i) => i.detail);
    expect(await detailsOn('2027-03-04')).toEqual(['Signing refused: zone check']);
    expect(await detailsOn('2027-03-05')).toEqual([]);
  });
});

describe('prescribing a controlled substance', () => {
  let patientId = '';
  const productIdOf = async (ndc: string) =>
    (await rows<{ id: string }>(sql`select id from drug_products where ndc = ${ndc}`))[0]?.id as string;
  beforeAll(async () => {
    patientId = (
      await rows<{ id: string }>(sql`select id from patients where md_office_id = ${practiceId}::uuid order by id limit 1`)
    )[0]?.id as string;
  });
  const body = async (ndc: string, refills: number) => ({
    patient: { patientId },
    order: {
      productId: await productIdOf(ndc),
      quantity: 30,
      daysSupply: 30,
      refills,
      sig: 'Take 1 tablet by mouth at bedtime as needed',
      substitutionAllowed: true,
      notesToPharmacist: '',
    },
  });
  const prepare = async (ndc: string, refills: number) =>
    call(morgan, 'POST', `/api/mdo/v1/users/${morgan.userID}/prescriptions/epcs-signing`, await body(ndc, refills));

  it('is refused by the ordinary send, and checked for its schedule: none for C-II, five for C-IV', async () => {
    const plain = await call(morgan, 'POST', `/api/mdo/v1/users/${morgan.userID}/prescriptions`, await body('00009-0029-01', 1));
    expect(plain.statusCode).toBe(400);
    const scheduleTwo = await prepare('00406-0123-01', 1);
    expect(scheduleTwo.statusCode).toBe(400);
    expect(scheduleTwo.json().error.details).toEqual([
      { path: 'body.order.refills', message: EPCS_MESSAGES.scheduleTwoNoRefills },
    ]);
    expect((await prepare('00406-0123-01', 0)).statusCode).toBe(200);
    expect((await prepare('00009-0029-01', 6)).json().error.details).toEqual([
      { path: 'body.order.refills', message: EPCS_MESSAGES.tooManyRefills },
    ]);
    // A colleague without permission of her own.
    const theirs = await call(
      second,
      'POST',
      `/api/mdo/v1/users/${second.userID}/prescriptions/epcs-signing`,
      await body('00009-0029-01', 1),
    );
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().error.message).toBe(EPCS_MESSAGES.noRights);
  });

  it('signs it with two factors: the prescription is written, sent by eRx with a signature that verifies', async () => {
    const shown = (await prepare('00009-0029-01', 1)).json();
    expect(shown.content).toMatchObject({ kind: 'new-prescription', prescriptionId: null, drug: { schedule: 'IV' }, refills: 1 });
    // A refill's signing route does not sign a new prescription, nor the other way round.
    expect(
      (await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${shown.signingId}/sign`, { stepUp: stepUp(morgan) })).statusCode,
    ).toBe(404);
    const signed = await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${shown.signingId}/prescribe`, {
      stepUp: stepUp(morgan),
    });
    expect(signed.statusCode).toBe(201);
    const created = signed.json();
    expect(created).toMatchObject({ patientId, sentVia: 'eRx', drugName: 'Alprazolam' });
    const key = (await t.app.inject({ method: 'GET', url: '/api/epcs/keys' })).json().keys[0];
    expect(verifyEpcsSignature(shown.content, created.signature.signature, key)).toBe(true);
    const [rx] = await db().select().from(s.prescriptions).where(eq(s.prescriptions.id, created.prescriptionId));
    expect(rx).toMatchObject({ prescribedNdc: '00009-0029-01', refills: 1, patientId });
    const [signing] = await db().select().from(s.epcsSignings).where(eq(s.epcsSignings.id, shown.signingId));
    expect(signing).toMatchObject({ prescriptionId: created.prescriptionId, kind: 'new-prescription' });
    expect(signing?.signedAt).not.toBeNull();
    // Once.
    expect(
      (await call(morgan, 'POST', `/api/mdo/v1/epcs-signings/${shown.signingId}/prescribe`, { stepUp: stepUp(morgan) }))
        .statusCode,
    ).toBe(404);
  });
});
