/** SQL of All Patients: the search (one statement with its audit row) and the detail. */
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { mdOffices, mdStaff, patients, prescriptions } from '../../db/schema.ts';
import { patientScopeSql } from '../../lib/office-scope.ts';
import { needsActionSql, refillDueSql } from '../../lib/prescription-sql.ts';
import { type ListAnswer, type ListAudit, SHOWN_COLUMN, selectListAnswer } from '../../lib/read-routing.ts';
import { likeEscape } from '../../lib/sql-like.ts';

export interface SearchTerms {
  /** Lower-case words that must each start a word of the first or the last name. */
  words: string[];
  /** A date of birth, when the text reads as one. */
  dobIso: string | null;
  /** Digits to find inside a phone number, when the text is phone-shaped. */
  phoneDigits: string | null;
}

/** A word of the typed text at the start of a name word: after a space (hyphens count as spaces on both sides). */
const wordStart = (word: string) => `% ${likeEscape(word.replace(/-/g, ' '))}%`;
/** The patient's names as one text of words, each after a space ("Mary-Jane O'Neil" -> " mary jane o'neil"). */
const nameWords = sql`(' ' || translate(lower(pt.first_name || ' ' || pt.last_name), '-', ' '))`;

function matchSql(terms: SearchTerms): SQL {
  const any: SQL[] = [];
  if (terms.words.length > 0) {
    // "Ana Maria Lopez" and "Maria Lopez" both find first name "Ana Maria", last name "Lopez".
    const all = terms.words.map((w) => sql`${nameWords} like ${wordStart(w)}`);
    any.push(sql.join(all, sql` and `));
  }
  if (terms.dobIso) any.push(sql`pt.dob = ${terms.dobIso}::date`);
  if (terms.phoneDigits) {
    any.push(
      sql`exists (select 1 from unnest(pt.phone_numbers) ph where regexp_replace(ph, '[^0-9]', '', 'g') like ${`%${terms.phoneDigits}%`})`,
    );
  }
  return any.length > 0 ? sql`(${sql.join(any, sql` or `)})` : sql`false`;
}

/** A patient whose last name is one of the words ranks first, then by name. */
function rankSql(terms: SearchTerms): SQL {
  if (terms.words.length === 0) return sql`0`;
  return sql`case when lower(pt.last_name) in (${sql.join(
    terms.words.map((w) => sql`${w}`),
    sql`, `,
  )}) then 0 else 1 end`;
}

export async function searchPatientsJson(
  db: Executor,
  input: {
    userId: string;
    terms: SearchTerms;
    offset: number;
    limit: number;
    todayIso: string;
  },
  /** The read's audit CTE (lib/read-routing.ts). */
  audit: ListAudit,
): Promise<ListAnswer> {
  return selectListAnswer(
    db,
    sql`
    with matches as (
      select pt.id, pt.first_name, pt.last_name, pt.dob, pt.phone_numbers, o.name as practice_name, ${rankSql(input.terms)} as rank
      from patients pt join md_offices o on o.id = pt.md_office_id
      where pt.md_office_id = any(array(${patientScopeSql(input.userId)})) and ${matchSql(input.terms)}
    ),
    page as (
      select * from matches order by rank, lower(last_name), lower(first_name), id limit ${input.limit} offset ${input.offset}
    ),
    ${audit(sql`select id as patient_id from page`)}
    select json_build_object(
      'total', (select count(*) from matches),
      'records', coalesce((select json_agg(json_build_object(
        'id', p.id, 'firstName', p.first_name, 'lastName', p.last_name, 'dob', to_char(p.dob, 'YYYY-MM-DD'),
        'phoneNumbers', to_json(p.phone_numbers), 'practiceName', p.practice_name,
        'actionNeededCount', (select count(*) from prescriptions rx
          where rx.patient_id = p.id and ${needsActionSql('rx', refillDueSql('rx', input.todayIso))})
      ) order by p.rank, lower(p.last_name), lower(p.first_name), p.id) from page p), '[]'::json)
    )::text as body, ${SHOWN_COLUMN}
  `,
    '{"records":[],"total":0}',
  );
}

export async function findPatient(db: Executor, userId: string, patientId: string) {
  const rows = await db
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      dob: patients.dob,
      phoneNumbers: patients.phoneNumbers,
      address1: patients.address1,
      city: patients.city,
      state: patients.state,
      zip: patients.zip,
      practiceName: mdOffices.name,
    })
    .from(patients)
    .innerJoin(mdOffices, eq(mdOffices.id, patients.mdOfficeId))
    .where(and(eq(patients.id, patientId), sql`${patients.mdOfficeId} in (${patientScopeSql(userId)})`))
    .limit(1);
  return rows[0] ?? null;
}

export async function prescriptionsOfPatient(db: Executor, patientId: string) {
  return db
    .select({
      rx: prescriptions,
      prescriberFirstName: mdStaff.firstName,
      prescriberLastName: mdStaff.lastName,
      prescriberRole: mdStaff.role,
    })
    .from(prescriptions)
    .innerJoin(mdStaff, eq(mdStaff.id, prescriptions.prescriberId))
    .where(eq(prescriptions.patientId, patientId))
    .orderBy(desc(prescriptions.prescribedAt), prescriptions.id);
}
