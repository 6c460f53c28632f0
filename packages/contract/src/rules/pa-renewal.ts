/**
 * Prior-authorization renewals (issue 23): a PA approval's expiry is kept on the prescription (the pharmacy's
 * `pa-expires`); from PA_RENEWAL_LEAD_DAYS before it — when plans accept a renewal — the practice gets a reminder
 * item on Action Needed, once per expiry. Dismissing the reminder ends it; a new expiry starts the count again.
 */
import { needsPriorAuth } from './action-types.ts';

export const PA_RENEWAL_LEAD_DAYS = 60;

const DAY_MS = 86_400_000;
/** An ISO date `days` later (or earlier), on the calendar (no time zone involved). */
export function addIsoDays(iso: string, days: number): string {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The first day the renewal of a PA expiring on `expiresOn` is due (ISO dates). */
export const paRenewalDueOn = (expiresOn: string): string => addIsoDays(expiresOn, -PA_RENEWAL_LEAD_DAYS);

/**
 * Whether a reminder is raised today: the renewal is due, no PA work is open on the prescription, and no reminder
 * was raised for this expiry before (dismissed or not).
 */
export function isPaRenewalReminderDue(
  rx: { priorAuthExpiresOn: string | null; priorAuthStatus: string | null; renewalRemindedFor: string | null },
  todayIso: string,
): boolean {
  if (rx.priorAuthExpiresOn === null) return false;
  if (needsPriorAuth(rx)) return false;
  if (rx.renewalRemindedFor === rx.priorAuthExpiresOn) return false;
  return paRenewalDueOn(rx.priorAuthExpiresOn) <= todayIso;
}
