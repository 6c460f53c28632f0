/**
 * Prior-authorization renewal reminders (issue 23, contract rules/pa-renewal.ts): once per cluster round
 * (housekeeping's lease), every prescription whose PA expiry is within PA_RENEWAL_LEAD_DAYS, with no PA work open and
 * no reminder for that expiry yet, becomes a PA item "renewal due" on its practice's Action Needed, with a timeline
 * event; the practice's open portals hear of it. Idempotent: a second round the same day raises nothing.
 */
import { EVENT_TYPES, isPaRenewalReminderDue, PA_RENEWAL_LEAD_DAYS, PRIOR_AUTH_RENEWAL_DUE } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { arrayParam, type Database } from '../../db/client.ts';
import { notifyPracticesOfPrescriptions } from '../../lib/live.ts';
import { insertEvents } from './repository.ts';

interface Candidate {
  id: string;
  priorAuthExpiresOn: string;
  priorAuthStatus: string | null;
  renewalRemindedFor: string | null;
}

/** Raises the reminders due on `todayIso`; answers how many were raised. */
export async function raiseDueRenewals(db: Database, todayIso: string): Promise<{ raised: number }> {
  return db.transaction(async (tx) => {
    // Candidates by the expiry index; the contract's rule decides, row by row.
    const result = (await tx.execute(sql`
      select id, to_char(prior_auth_expires_on, 'YYYY-MM-DD') as "priorAuthExpiresOn", prior_auth_status as "priorAuthStatus",
        to_char(prior_auth_renewal_reminded_for, 'YYYY-MM-DD') as "renewalRemindedFor"
      from prescriptions
      where prior_auth_expires_on is not null
        and prior_auth_expires_on <= ${todayIso}::date + ${PA_RENEWAL_LEAD_DAYS}::int
        and prior_auth_renewal_reminded_for is distinct from prior_auth_expires_on
      order by id
      for update skip locked`)) as unknown as { rows: Candidate[] };
    const due = result.rows.filter((rx) => isPaRenewalReminderDue(rx, todayIso));
    const ids = due.map((rx) => rx.id);
    if (ids.length === 0) return { raised: 0 };
    await tx.execute(sql`update prescriptions set prior_auth_status = ${PRIOR_AUTH_RENEWAL_DUE},
        prior_auth_renewal_reminded_for = prior_auth_expires_on, request_received_at = (now() at time zone 'UTC'),
        version = version + 1, updated_at = now()
      where id = any(${arrayParam(ids, 'uuid')})`);
    await insertEvents(
      tx,
      due.map((rx) => ({
        prescriptionId: rx.id,
        type: EVENT_TYPES.priorAuthRenewalDue,
        actorUserId: null,
        requestId: null,
        data: { expiresOn: rx.priorAuthExpiresOn },
      })),
    );
    await notifyPracticesOfPrescriptions(tx, ids);
    return { raised: due.length };
  });
}
