/**
 * The unusual-access rules' SQL (issue 49, decision 0061): the three rules in one set-based statement over the range's
 * reads, bounded per rule.
 */
import { PATIENT_READ_ACTIONS, RECORD_READ_ACTIONS } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import { arrayParam, type Executor, selectRows } from '../../db/client.ts';
import { endOf, type ZoneDays as Range, startOf } from '../../db/zone-days.ts';
import { needsActionSql, refillDueSql } from '../../lib/prescription-sql.ts';
import { type ReviewRow, reviewStatusSql } from './repository.ts';

const READS = () => arrayParam([...PATIENT_READ_ACTIONS], 'text');
const RECORD_READS = () => arrayParam([...RECORD_READ_ACTIONS], 'text');

export interface FindingRow extends ReviewRow {
  rule: 'afterHours' | 'manyPatients' | 'noOpenWork';
  actor_id: string;
  actor_name: string;
  actor_practice: string | null;
  first_at: Date | string;
  last_at: Date | string;
  reads: number;
  patients: number;
  patient_id: string | null;
  patient_name: string | null;
  bucket: string;
  /** How many findings of this rule match, of which the newest FINDINGS_PER_RULE are returned. */
  rule_total: number;
}

/** The most findings of one rule a list returns (newest first); the rest are counted. */
export const FINDINGS_PER_RULE = 200;

export interface FindingRules {
  hours: { start: number; end: number };
  many: { patients: number; minutes: number };
  todayIso: string;
}

/**
 * The three unusual-access rules in one statement, set-based: the range's reads of patient data by office users
 * are read once (the time index, then each row's patients by key), grouped per rule, and the rows of "without open
 * work" are taken out by two anti-joins (the reader's changes that day; the patients with a request waiting at the
 * reader's practices) instead of a lookup per read. Findings are filtered by their review, ranked newest first and
 * cut at FINDINGS_PER_RULE per rule, with each rule's total.
 */
export async function unusualAccessFindings(
  db: Executor,
  tenantId: string,
  range: Range,
  rules: FindingRules,
  filter: { status: 'open' | 'reviewed' | 'all'; rule: string | null },
) {
  const seconds = rules.many.minutes * 60;
  return selectRows<FindingRow>(
    db,
    sql`with reads as materialized (
          select a.id, a.actor_user_id, a.created_at, a.action, s.patient_id,
            (a.created_at at time zone ${range.timeZone}) as local
          from audit_log a
          join users u on u.id = a.actor_user_id and u.tenant_id = ${tenantId} and u.role = 'mdo.user'
          join audit_subjects s on s.audit_id = a.id
          where a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)} and a.action = any(${READS()})
        ),
        after_hours as (
          select 'afterHours' as rule, actor_user_id as actor_id, local::date::text as bucket, null::uuid as patient_id,
            min(created_at) as first_at, max(created_at) as last_at,
            count(distinct id)::int as reads, count(distinct patient_id)::int as patients
          from reads
          where extract(isodow from local) in (6, 7) or extract(hour from local) < ${rules.hours.start}
             or extract(hour from local) >= ${rules.hours.end}
          group by actor_user_id, local::date
        ),
        many as (
          select 'manyPatients' as rule, actor_user_id as actor_id,
            to_char(to_timestamp(floor(extract(epoch from created_at) / ${seconds}) * ${seconds}) at time zone 'UTC',
              'YYYY-MM-DD"T"HH24:MI"Z"') as bucket, null::uuid as patient_id,
            min(created_at) as first_at, max(created_at) as last_at,
            count(distinct id)::int as reads, count(distinct patient_id)::int as patients
          from reads where action = any(${RECORD_READS()})
          group by 2, 3 having count(distinct patient_id) >= ${rules.many.patients}
        ),
        record_reads as (
          select actor_user_id, patient_id, local::date as day, min(created_at) as first_at, max(created_at) as last_at,
            count(distinct id)::int as reads
          from reads where action = any(${RECORD_READS()}) group by 1, 2, 3
        ),
        writes as (
          select distinct a.actor_user_id, s.patient_id, (a.created_at at time zone ${range.timeZone})::date as day
          from audit_log a join audit_subjects s on s.audit_id = a.id
          where a.created_at >= ${startOf(range)} and a.created_at < ${endOf(range)}
            and a.actor_user_id in (select distinct actor_user_id from record_reads)
            and a.action <> all(${READS()}) and a.action not like '%.refused'
        ),
        open_work as (
          select distinct rr.actor_user_id, rr.patient_id
          from (select distinct actor_user_id, patient_id from record_reads) rr
          join users ru on ru.id = rr.actor_user_id
          join prescriptions rx on rx.patient_id = rr.patient_id
          join office_members m on m.md_staff_id = ru.md_staff_id and m.md_office_id = rx.md_office_id
          where ${needsActionSql('rx', refillDueSql('rx', rules.todayIso))}
        ),
        no_work as (
          select 'noOpenWork' as rule, r.actor_user_id as actor_id, r.day::text || ':' || r.patient_id::text as bucket,
            r.patient_id, r.first_at, r.last_at, r.reads, 1 as patients
          from record_reads r
          where not exists (select 1 from writes w
                             where w.actor_user_id = r.actor_user_id and w.patient_id = r.patient_id and w.day = r.day)
            and not exists (select 1 from open_work o where o.actor_user_id = r.actor_user_id and o.patient_id = r.patient_id)
        ),
        f as (select * from after_hours union all select * from many union all select * from no_work),
        reviewed as (
          select f.*, r.id as review_id, r.reviewed_by as reviewer_id, r.reviewed_at, r.note
          from f left join audit_reviews r
            on r.tenant_id = ${tenantId} and r.item_key = f.rule || ':' || f.actor_id::text || ':' || f.bucket
          where ${reviewStatusSql(filter.status)} and (${filter.rule}::text is null or f.rule = ${filter.rule})
        ),
        ranked as (
          select reviewed.*, row_number() over (partition by rule order by first_at desc, actor_id, bucket) as n,
            count(*) over (partition by rule)::int as rule_total
          from reviewed
        )
        select k.rule, k.actor_id, k.bucket, k.patient_id, k.first_at, k.last_at, k.reads, k.patients, k.rule_total,
          u.display_name as actor_name, o.name as actor_practice, p.first_name || ' ' || p.last_name as patient_name,
          rv.display_name as reviewed_by, k.reviewed_at, k.note
        from ranked k join users u on u.id = k.actor_id left join md_offices o on o.id = u.md_office_id
          left join patients p on p.id = k.patient_id left join users rv on rv.id = k.reviewer_id
        where k.n <= ${FINDINGS_PER_RULE}
        order by k.first_at desc`,
  );
}
