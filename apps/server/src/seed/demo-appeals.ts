/**
 * The appeal links of the demo: what the pharmacy would send a prescriber (NPI + access key). Seeded appeals
 * get keys derived from their id (`demoAppealKey`), so `npm start` can print working links and the end-to-end
 * tests can read them from the data folder, like the dev mail file.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { appealLinkPath } from '@hcp/contract';
import { sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { demoAppealKey } from './generate.ts';

export interface DemoAppealLink {
  appealId: string;
  prescriptionId: string;
  /** The portal account of the prescriber, when they have one (e.g. dr.morgan@demo.hcp). */
  prescriberEmail: string | null;
  patientName: string;
  npi: string;
  key: string;
  /** Get Covered appeals need the clinical notes; others open in the HCP appeal form. */
  variant: 'getCovered' | 'appeal';
  /** Path and query of the link, e.g. /getcovered?npi=…&key=…. */
  path: string;
}

/** Open (not submitted, not expired) appeals of prescribers with portal accounts first. */
export async function listDemoAppealLinks(db: Executor, limit = 20): Promise<DemoAppealLink[]> {
  const result = (await db.execute(sql`
    select a.id, a.prescription_id, a.npi, a.clinical_notes_required, u.email,
      pt.first_name || ' ' || pt.last_name as patient_name
    from appeals a
    join prescriptions rx on rx.id = a.prescription_id
    join patients pt on pt.id = rx.patient_id
    left join users u on u.md_staff_id = rx.prescriber_id and u.disabled_at is null
    where a.submitted_at is null and a.access_key_expires_at > now()
    order by (u.email is null), u.email, a.id
    limit ${limit}`)) as unknown as {
    rows: {
      id: string;
      prescription_id: string;
      npi: string;
      clinical_notes_required: boolean;
      email: string | null;
      patient_name: string;
    }[];
  };
  return result.rows.map((row) => {
    const key = demoAppealKey(row.id);
    const variant = row.clinical_notes_required ? 'getCovered' : 'appeal';
    return {
      appealId: row.id,
      prescriptionId: row.prescription_id,
      prescriberEmail: row.email,
      patientName: row.patient_name,
      npi: row.npi,
      key,
      variant,
      path: appealLinkPath(row.npi, key, row.clinical_notes_required),
    };
  });
}

export async function writeDemoAppealLinks(dataDir: string, links: DemoAppealLink[]): Promise<void> {
  await writeFile(path.join(dataDir, 'demo-appeals.json'), `${JSON.stringify(links, null, 2)}\n`);
}
