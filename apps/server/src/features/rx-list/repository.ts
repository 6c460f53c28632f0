/** SQL of the Rx list: one statement builds the JSON array of rows and writes the audit row of the read. */
import { RX_LIST_MAX_ROWS, type RxListFilter } from '@hcp/contract';
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';
import { type ListAnswer, type ListAudit, SHOWN_COLUMN, selectListAnswer } from '../../lib/read-routing.ts';

/** Days a prescriber counts as new (filter newMDs) and the quiet period before a win-back (winBackMDs). */
export const NEW_MD_DAYS = 90;
export const WIN_BACK_QUIET_DAYS = 180;

/** The filters of spec §9, as our design defines them (docs/decisions/0012-rx-list.md). */
function filterSql(filter: RxListFilter, input: { startIso: string; todayIso: string }): SQL {
  switch (filter) {
    case 'newMDs':
      return sql`and d.created_at >= ${input.todayIso}::date - ${NEW_MD_DAYS}::int`;
    case 'bausch':
    case 'tolsura':
      return sql`and exists (select 1 from drug_products dp where dp.ndc = p.prescribed_ndc and dp.product_line = ${filter})`;
    case 'winBackMDs':
      return sql`and not exists (select 1 from prescriptions q where q.prescriber_id = p.prescriber_id
        and q.prescribed_at >= ${input.startIso}::date - ${WIN_BACK_QUIET_DAYS}::int and q.prescribed_at < ${input.startIso}::date)`;
    default:
      return sql``;
  }
}

export async function rxListJson(
  db: Executor,
  input: {
    userId: string;
    startIso: string;
    endIso: string;
    filter: RxListFilter;
    todayIso: string;
  },
  /** The read's audit CTE (lib/read-routing.ts). */
  audit: ListAudit,
): Promise<ListAnswer> {
  return selectListAnswer(
    db,
    sql`
    with picked as (
      select p.*, d.first_name as d_first, d.last_name as d_last, d.phone as d_phone, d.created_at as d_created,
             d.specialty as d_specialty, o.name as office_name, pt.first_name as pt_first, pt.last_name as pt_last, pt.dob as pt_dob
      from prescriptions p
      join md_staff d on d.id = p.prescriber_id
      join md_offices o on o.id = p.md_office_id
      join patients pt on pt.id = p.patient_id
      where p.md_office_id = any(array(${patientScopeSql(input.userId)}))
        and p.prescribed_at >= ${input.startIso}::date and p.prescribed_at < ${input.endIso}::date + 1
        ${filterSql(input.filter, { startIso: input.startIso, todayIso: input.todayIso })}
      order by p.prescribed_at desc, p.id
      limit ${RX_LIST_MAX_ROWS}
    ),
    ${audit(sql`select patient_id from picked`)}
    select coalesce(json_agg(json_build_object(
      'id', id, 'practiceName', office_name, 'patientName', pt_first || ' ' || pt_last,
      'patientDob', to_char(pt_dob, 'YYYY-MM-DD'),
      'prescriptionName', drug_name || coalesce(' ' || strength, ''), 'isWholeSale', is_wholesale,
      'orderNumber', order_number, 'prescribedDate', to_char(prescribed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'),
      'orderStatus', order_status, 'pending', pending,
      'lastProcessedDate', to_char(last_processed_at, 'YYYY-MM-DD HH24:MI:SS"Z"'),
      'prescriberName', d_first || ' ' || d_last, 'prescriberPhoneNumber', d_phone,
      'prescriberCreatedDate', to_char(d_created at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS"Z"'), 'prescriberSpecialty', d_specialty,
      'price', price::float8
    ) order by lower(office_name), prescribed_at desc, id), '[]'::json)::text as body, ${SHOWN_COLUMN}
    from picked
  `,
    '[]',
  );
}
