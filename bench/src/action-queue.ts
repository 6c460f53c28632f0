/**
 * The one queue (issue 22) on the large seed: the real endpoint (sign-in guard, validation, logging, audit row,
 * one statement, run-out days and urgency order by the contract's rules) against a bare node:http server that
 * answers the same JSON from one hand-written query ordered in SQL. The answers are checked equal first; the
 * ratio of requests per second comes from interleaved rounds.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isDeepStrictEqual } from 'node:util';
import type { DatabaseHandle } from '../../apps/server/src/db/client.ts';
import { interleavedRatio, load } from './measure.ts';

/** Same scope, items, fields and order as the endpoint, written by hand. */
const BASELINE_SQL = `
with scope as (
  select o.id from md_offices o join users u on u.id = $1
  where u.disabled_at is null and o.tenant_id = u.tenant_id and o.deleted_at is null and (
    u.role = 'mdo.user' and (o.id = u.md_office_id or exists (
      select 1 from office_members m where m.md_office_id = o.id and m.md_staff_id = u.md_staff_id)))
), p as (
  select rx.*, (rx.needs_refill_auth and (rx.refill_postponed_until is null or rx.refill_postponed_until <= $2::date)) as due
  from prescriptions rx where rx.md_office_id in (select id from scope)
), picked as (
  select p.*, (p.last_filled_on + p.days_supply - $2::date) as run_out,
    coalesce(p.request_received_at, p.last_processed_at, p.prescribed_at) as waiting
  from p where due or phone_exception or hcp_action_required
    or prior_auth_status in ('PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY','PRIOR_AUTH_CHART_NOTES_NEEDED','PRIOR_AUTH_ICD10_NEEDED','PRIOR_AUTH_REQUIRED','PRIOR_AUTH_RENEWAL_DUE')
    or substitution_status like 'SUBSTITUTION_PENDING_MD_SELECTION_%'
)
select json_build_object('today', $2::text, 'items', coalesce(json_agg(json_build_object(
  'id', x.id,
  'patient', json_build_object('id', pt.id, 'firstName', pt.first_name, 'lastName', pt.last_name, 'dob', to_char(pt.dob, 'YYYY-MM-DD')),
  'prescriber', json_build_object('id', d.id, 'name', d.first_name || ' ' || d.last_name, 'role', d.role),
  'practice', json_build_object('id', o.id, 'name', o.name, 'prescribeVia', o.prescribe_via),
  'needsRefillAuth', x.due, 'phoneException', x.phone_exception, 'substitutionStatus', x.substitution_status,
  'priorAuthStatus', x.prior_auth_status, 'priorAuthMethod', x.prior_auth_method, 'hcpActionRequired', x.hcp_action_required,
  'drugName', x.drug_name, 'strength', x.strength, 'prescribedNdc', x.prescribed_ndc, 'dispensedNdc', x.dispensed_ndc,
  'quantity', x.quantity, 'daysSupply', x.days_supply, 'refills', x.refills, 'sig', x.sig,
  'isControlled', exists (select 1 from drug_products dp where dp.ndc in (x.prescribed_ndc, x.dispensed_ndc) and dp.is_controlled),
  'prescribedDate', to_char(x.prescribed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'),
  'lastFilledOn', to_char(x.last_filled_on, 'YYYY-MM-DD'), 'runOutInDays', x.run_out, 'refillsRemaining', x.refills_remaining,
  'timesRequestedBefore', (select count(*) from prescription_events e where e.prescription_id = x.id
     and e.type in ('REFILL_AUTHORIZED_FAX','REFILL_AUTHORIZED_ERX','REFILL_DENIED')),
  'priorDenials', (select count(*) from prescription_events e where e.prescription_id = x.id and e.type = 'REFILL_DENIED'),
  'priorAuthExpiresOn', to_char(x.prior_auth_expires_on, 'YYYY-MM-DD'),
  'alternativeMeds', case when x.substitution_status like 'SUBSTITUTION_PENDING_MD_SELECTION_%' then coalesce(
    to_json(x.offered_alternatives),
    (select json_agg(a.alternative_name order by a.rank) from drug_alternatives a where a.drug_name = x.drug_name), '[]'::json)
    else '[]'::json end,
  'waitingSince', to_char(x.waiting, 'YYYY-MM-DD HH24:MI:SS"Z"'), 'version', x.version,
  'prepared', (select json_build_object('decision', pd.decision, 'preparedByName', pu.display_name,
    'preparedAt', to_char(pd.prepared_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
    from prepared_decisions pd join users pu on pu.id = pd.prepared_by
    where pd.prescription_id = x.id and pd.prescription_version = x.version),
  'faxByRule', (select r.name from standing_rules r where r.id = x.fax_rule_id)
) order by x.run_out nulls last, date_trunc('second', x.waiting), x.id), '[]'::json))::text as body
from picked x join patients pt on pt.id = x.patient_id join md_staff d on d.id = x.prescriber_id
join md_offices o on o.id = x.md_office_id`;

type Query = (text: string, params: unknown[]) => Promise<{ rows: { body: string }[] }>;

export async function actionQueueBench(
  label: string,
  database: DatabaseHandle,
  query: Query,
  appBase: string,
  headers: Record<string, string>,
  userId: string,
  seconds: number,
): Promise<void> {
  const path = `/api/mdo/v2/users/${userId}/action-queue`;
  const bare = http.createServer(async (_req, res) => {
    const today = new Date().toISOString().slice(0, 10);
    const { rows } = await query(BASELINE_SQL, [userId, today]);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(rows[0]?.body ?? '{"items":[]}');
  });
  await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}${path}`;
  try {
    const ours = await (await fetch(`${appBase}${path}`, { headers })).json();
    const theirs = await (await fetch(bareUrl)).json();
    if (!isDeepStrictEqual(ours, theirs)) throw new Error(`${label}: the queue endpoint and the baseline answer differently`);
    const items = (ours as { items: unknown[] }).items.length;
    const before = database.stats.queries;
    await fetch(`${appBase}${path}`, { headers }).then((r) => r.arrayBuffer());
    const statements = database.stats.queries - before;
    const round = Math.max(1, Math.round(seconds / 2));
    await interleavedRatio(
      `action-queue (${label})`,
      'GET action-queue req/s',
      'bare node:http + one hand-written query',
      5,
      async () => (await load(`${appBase}${path}`, round, 10, headers)).requestsPerSecond,
      async () => (await load(bareUrl, round)).requestsPerSecond,
      (a, b) => `${a.toFixed(0)} vs ${b.toFixed(0)} req/s; ${statements} SQL statements per request; ${items} items`,
    );
  } finally {
    bare.close();
  }
}
