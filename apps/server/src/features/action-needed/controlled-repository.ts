/** The SQL of signing a controlled refill (issue 48, decision 0059): what is shown and signed, and the signing rows. */
import { sql } from 'drizzle-orm';
import { type Executor, selectRows } from '../../db/client.ts';

/** What a controlled prescription's signing shows and covers, read together (the caller's reach is checked first). */
export async function signingFactsOf(db: Executor, prescriptionId: string) {
  const [row] = await selectRows<{
    id: string;
    mdOfficeId: string;
    prescriberId: string;
    version: number;
    needsRefillAuth: boolean;
    issuedOn: string;
    patientName: string;
    patientDob: string;
    patientAddress: string;
    drugName: string;
    strength: string | null;
    form: string | null;
    ndc: string | null;
    schedule: string | null;
    quantity: number | null;
    daysSupply: number | null;
    officeState: string | null;
    officeAddress: string;
  }>(
    db,
    sql`select rx.id, rx.md_office_id as "mdOfficeId", rx.prescriber_id as "prescriberId", rx.version,
          rx.needs_refill_auth as "needsRefillAuth", to_char(rx.prescribed_at, 'YYYY-MM-DD') as "issuedOn",
          trim(p.first_name || ' ' || p.last_name) as "patientName", p.dob::text as "patientDob",
          concat_ws(', ', p.address1, p.city, concat_ws(' ', p.state, p.zip)) as "patientAddress",
          rx.drug_name as "drugName", rx.strength, dp.form, dp.ndc, dp.dea_schedule as schedule,
          rx.quantity, rx.days_supply as "daysSupply", o.state as "officeState",
          concat_ws(', ', o.name, o.address1, o.city, concat_ws(' ', o.state, o.zip)) as "officeAddress"
        from prescriptions rx join patients p on p.id = rx.patient_id join md_offices o on o.id = rx.md_office_id
          left join lateral (select d.form, d.ndc, d.dea_schedule from drug_products d
            where d.ndc in (rx.dispensed_ndc, rx.prescribed_ndc) and d.is_controlled
            order by d.ndc = rx.dispensed_ndc desc limit 1) dp on true
        where rx.id = ${prescriptionId}`,
  );
  return row ?? null;
}
