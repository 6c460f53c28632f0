/**
 * What both EPCS sides share (issue 48, decision 0059): the features `epcs` (registrations, permissions, reports)
 * and `action-needed` (signing a controlled refill) each ask here whether a prescriber may sign at a practice, and
 * check two factors at this moment — the password and a hard token (a passkey or security key, or the
 * authenticator app) — through the sign-in factors, passed in as an interface so no feature imports another.
 */
import {
  coveringRegistration,
  DEA_SCHEDULES,
  type DeaSchedule,
  EPCS_MESSAGES,
  type EpcsFactor,
  isPrescriberRole,
  type PasskeyAssertion,
  type StepUpAnswer,
} from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { writeAudit } from './audit.ts';
import { AppError } from './errors.ts';
import { verifyPassword } from './passwords.ts';

export interface PasskeySite {
  origin: string;
  rpID: string;
}

/** The sign-in factors EPCS uses (features/sign-in-factors), seen from here. */
export interface StepUpFactors {
  strongFactors(userId: string): Promise<EpcsFactor[]>;
  signInOptions(userId: string, site: PasskeySite, purpose: 'step-up'): Promise<unknown>;
  verifiedPasskey(
    userId: string,
    assertion: PasskeyAssertion,
    site: PasskeySite,
    purpose: 'step-up',
  ): Promise<{ passkeyId: string; attestationFormat: string; aaguid: string } | null>;
  checkAuthenticatorCode(userId: string, code: string): Promise<boolean>;
}

/** Which factor completed a step-up, as recorded: 'passkey:<format>:<aaguid>' or 'totp'. */
export type StepUpRecord = string;

/**
 * Checks two factors now; answers what completed them, or refuses (422 at `body.stepUp`, saying nothing of which
 * factor failed). The passkey's challenge must have been asked for this purpose ('step-up'), and is used once.
 */
export async function verifyStepUp(
  db: Executor,
  factors: StepUpFactors,
  userId: string,
  stepUp: Pick<StepUpAnswer, 'currentPassword' | 'passkey' | 'totpCode'>,
  site: PasskeySite,
): Promise<StepUpRecord> {
  const refuse = () =>
    new AppError('VALIDATION_FAILED', EPCS_MESSAGES.wrongFactor, [{ path: 'body.stepUp', message: EPCS_MESSAGES.wrongFactor }]);
  const [row] = (
    (await db.execute(
      sql`select password_hash as "hash" from users where id = ${userId} and disabled_at is null`,
    )) as unknown as {
      rows: { hash: string | null }[];
    }
  ).rows;
  if (!row?.hash || !(await verifyPassword(row.hash, stepUp.currentPassword))) throw refuse();
  if (stepUp.passkey) {
    const key = await factors.verifiedPasskey(userId, stepUp.passkey, site, 'step-up');
    if (!key) throw refuse();
    return `passkey:${key.attestationFormat}:${key.aaguid}`;
  }
  if (stepUp.totpCode && (await factors.checkAuthenticatorCode(userId, stepUp.totpCode))) return 'totp';
  throw refuse();
}

export interface RegistrationRow {
  id: string;
  number: string;
  schedules: string[];
  state: string;
  expiresOn: string;
}

/** A prescriber's standing at a practice: permission (the latest approved change), registrations, the practice's state. */
export async function epcsStandingOf(db: Executor, practiceId: string, staffId: string) {
  const [row] = (
    (await db.execute(sql`
    select coalesce((select c.action from epcs_changes c where c.md_office_id = ${practiceId} and c.md_staff_id = ${staffId}
        and c.approved_at is not null order by c.approved_at desc limit 1), 'revoke') = 'grant' as "permitted",
      (select o.state from md_offices o where o.id = ${practiceId}) as "state",
      coalesce((select json_agg(json_build_object('id', r.id, 'number', r.number, 'schedules', r.schedules,
          'state', r.state, 'expiresOn', r.expires_on::text) order by r.created_at)
        from dea_registrations r where r.md_staff_id = ${staffId} and r.removed_at is null), '[]'::json) as "registrations"`)) as unknown as {
      rows: { permitted: boolean; state: string | null; registrations: RegistrationRow[] }[];
    }
  ).rows;
  return row ?? { permitted: false, state: null, registrations: [] };
}

export const isDeaSchedule = (value: string | null | undefined): value is DeaSchedule =>
  (DEA_SCHEDULES as readonly string[]).includes(value ?? '');

/** The caller's prescriber record, when they are a prescriber (the only ones who sign): else 403. */
export async function prescriberOf(db: Executor, userId: string): Promise<{ staffId: string; name: string; npi: string | null }> {
  const [row] = (
    (await db.execute(sql`
    select s.id as "staffId", trim(s.first_name || ' ' || s.last_name) as name, s.npi, s.role
    from users u join md_staff s on s.id = u.md_staff_id and s.deleted_at is null
    where u.id = ${userId} and u.disabled_at is null and u.role = 'mdo.user'`)) as unknown as {
      rows: { staffId: string; name: string; npi: string | null; role: string }[];
    }
  ).rows;
  if (!row || !isPrescriberRole(row.role)) throw new AppError('FORBIDDEN', EPCS_MESSAGES.notPrescriber);
  return row;
}

/**
 * Who signs a controlled substance of `schedule` at a practice, after the rules of who may (21 CFR 1311.120(b),
 * .125): a prescriber, with their own permission there, and a current DEA registration for the schedule and the
 * practice's state (403 with the reason otherwise). Their name, NPI and the registration's number go in the content.
 */
export async function signerFor(
  db: Executor,
  userId: string,
  need: { practiceId: string; schedule: DeaSchedule; today: string },
) {
  const prescriber = await prescriberOf(db, userId);
  const standing = await epcsStandingOf(db, need.practiceId, prescriber.staffId);
  if (!standing.permitted) throw new AppError('FORBIDDEN', EPCS_MESSAGES.noRights);
  const covering = coveringRegistration(standing.registrations, { schedule: need.schedule, state: standing.state }, need.today);
  if (!covering.registration) throw new AppError('FORBIDDEN', covering.problem);
  return { prescriber, registration: covering.registration };
}

/** Runs `work`; a refusal (not a 404) is first recorded as an incident of the practice's EPCS report. */
export async function asEpcsIncident<T>(
  db: Executor,
  ctx: { userId: string; requestId: string; ip: string | null },
  practiceId: string | null,
  details: Record<string, unknown>,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (practiceId && error instanceof AppError && error.code !== 'NOT_FOUND') {
      await auditEpcs(db, ctx, practiceId, 'epcs.sign.refused', { ...details, reason: error.message });
    }
    throw error;
  }
}

/** Two factors now for signing; a failure is an incident of the practice's EPCS report. */
export async function verifySigningStepUp(
  db: Executor,
  factors: StepUpFactors,
  ctx: { userId: string; requestId: string; ip: string | null },
  practiceId: string,
  stepUp: Pick<StepUpAnswer, 'currentPassword' | 'passkey' | 'totpCode'>,
  site: PasskeySite,
): Promise<StepUpRecord> {
  try {
    return await verifyStepUp(db, factors, ctx.userId, stepUp, site);
  } catch (error) {
    await auditEpcs(db, ctx, practiceId, 'epcs.authentication.failed', { during: 'signing a controlled substance' });
    throw error;
  }
}

/** An EPCS incident or access change, in the practice's EPCS report (21 CFR 1311.150, .215). */
export function auditEpcs(
  db: Executor,
  ctx: { userId: string; requestId: string; ip: string | null },
  practiceId: string,
  action: string,
  details: Record<string, unknown>,
) {
  return writeAudit(db, {
    actorUserId: ctx.userId,
    action,
    entityType: 'epcs',
    entityId: practiceId,
    requestId: ctx.requestId,
    ip: ctx.ip,
    details,
  });
}
