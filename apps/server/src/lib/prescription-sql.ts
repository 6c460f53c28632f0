/**
 * The contract's "needs action" rules (packages/contract/src/rules/action-types.ts, transitions.ts) as SQL
 * conditions over a prescriptions row alias, so every list that filters or counts by them asks the same
 * question. The status lists come from the contract's constants (trusted values, printed as literals so
 * the planner sees them as constants).
 */
import { PRIOR_AUTH_ACTION_STATUSES, SUBSTITUTION_PENDING_STATUSES } from '@hcp/contract';
import { type SQL, sql } from 'drizzle-orm';

const literals = (values: readonly string[]) => sql.raw(values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', '));
const column = (alias: string, name: string) => sql.raw(`${alias}.${name}`);

/** A refill request that waits for the prescriber today (not postponed to a later day). */
export const refillDueSql = (alias: string, todayIso: string): SQL =>
  sql`(${column(alias, 'needs_refill_auth')} and (${column(alias, 'refill_postponed_until')} is null or ${column(alias, 'refill_postponed_until')} <= ${todayIso}::date))`;

export const priorAuthNeedsActionSql = (alias: string): SQL =>
  sql`${column(alias, 'prior_auth_status')} in (${literals(PRIOR_AUTH_ACTION_STATUSES)})`;

export const altMedPendingSql = (alias: string): SQL =>
  sql`${column(alias, 'substitution_status')} in (${literals(SUBSTITUTION_PENDING_STATUSES)})`;

/** Any of the five categories; `refillDue` is the refill condition already worked out for this row. */
export const needsActionSql = (alias: string, refillDue: SQL): SQL =>
  sql`(${refillDue} or ${column(alias, 'phone_exception')} or ${column(alias, 'hcp_action_required')} or ${priorAuthNeedsActionSql(alias)} or ${altMedPendingSql(alias)})`;

/**
 * The alternatives shown for a prescription waiting on an alternative-medication choice, as JSON: those the
 * pharmacy offered (FHIR Task input), else the catalogue's for the drug; [] for any other prescription.
 */
export const alternativeMedsJsonSql = (alias: string): SQL =>
  sql`case when ${altMedPendingSql(alias)} then coalesce(
    to_json(${column(alias, 'offered_alternatives')}),
    (select json_agg(a.alternative_name order by a.rank) from drug_alternatives a where a.drug_name = ${column(alias, 'drug_name')}),
    '[]'::json) else '[]'::json end`;
