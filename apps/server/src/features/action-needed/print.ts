/**
 * The printable alternative-medication request (spec §2 "Other helper" opens it in a new window). Every
 * value is escaped: names and notes come from people and must never become markup.
 */
import type { Executor } from '../../db/client.ts';
import { entryOf, writeAudit } from '../../lib/audit.ts';
import { AppError } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { PRESCRIPTION_NOT_FOUND } from './act.ts';
import * as repo from './repository.ts';

/**
 * The page's only style. The web app opens the page in a blank window that inherits the app's CSP, so
 * this exact text is allowed there by its hash (plugins/security.ts) rather than by 'unsafe-inline'.
 */
export const PRINT_STYLE = `body{font-family:system-ui,sans-serif;margin:2rem;color:#111;line-height:1.4}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{font-weight:600}
ul{list-style:none;padding:0}li{margin:.5rem 0}.box{display:inline-block;width:1rem;height:1rem;border:1px solid #111;vertical-align:middle}
.signature{margin-top:3rem;display:grid;grid-template-columns:1fr 12rem;gap:2rem}.line{border-top:1px solid #111;padding-top:.25rem}
@media print{body{margin:0}}`;

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);

const usDate = (iso: string) => {
  const [y, m, d] = iso.slice(0, 10).split('-');
  return `${m}/${d}/${y}`;
};

/** The printable request (a read of the patient's name, birth date and prescription: audited like any read). */
export async function alternativeMedsRequestHtml(db: Executor, ctx: SignedInContext, id: string): Promise<string> {
  const doc = await repo.prescriptionDocument(db, ctx.userId, id);
  if (!doc) throw new AppError('NOT_FOUND', PRESCRIPTION_NOT_FOUND);
  await writeAudit(db, entryOf(ctx, 'prescription.alternative-meds-print.read', 'prescription', id));
  const alternatives = await repo.alternativesOf(db, doc.drugName, doc.offeredAlternatives);
  const e = escapeHtml;
  const prescriber = `${doc.prescriberFirstName} ${doc.prescriberLastName}, ${doc.prescriberRole}`;
  const office = [doc.officeAddress, [doc.officeCity, doc.officeState].filter(Boolean).join(', '), doc.officeZip]
    .filter(Boolean)
    .join(' ');
  const options =
    alternatives.length > 0
      ? alternatives.map((name) => `<li><span class="box" aria-hidden="true"></span> ${e(name)}</li>`).join('')
      : '<li><span class="box" aria-hidden="true"></span> ______________________________</li>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Alternative medication request – ${e(doc.drugName)}</title>
<style>${PRINT_STYLE}</style></head>
<body>
<h1>Alternative medication request</h1>
<h2>Practice</h2>
<dl><dt>Practice</dt><dd>${e(doc.officeName)}</dd><dt>Address</dt><dd>${e(office)}</dd>
<dt>Phone</dt><dd>${e(doc.officePhone)}</dd><dt>Fax</dt><dd>${e(doc.officeFax)}</dd></dl>
<h2>Prescriber</h2>
<dl><dt>Prescriber</dt><dd>${e(prescriber)}</dd><dt>NPI</dt><dd>${e(doc.prescriberNpi)}</dd></dl>
<h2>Patient</h2>
<dl><dt>Name</dt><dd>${e(`${doc.patientFirstName} ${doc.patientLastName}`)}</dd><dt>Date of birth</dt><dd>${e(usDate(doc.patientDob))}</dd></dl>
<h2>Prescribed</h2>
<dl><dt>Drug</dt><dd>${e([doc.drugName, doc.strength].filter(Boolean).join(' '))}</dd><dt>NDC</dt><dd>${e(doc.prescribedNdc)}</dd>
<dt>Quantity</dt><dd>${e(doc.quantity)}</dd><dt>Refills</dt><dd>${e(doc.refills)}</dd><dt>Sig</dt><dd>${e(doc.sig)}</dd>
<dt>Prescribed on</dt><dd>${e(usDate(doc.prescribedAt.toISOString()))}</dd></dl>
<h2>Please choose one alternative</h2>
<ul>${options}<li><span class="box" aria-hidden="true"></span> No substitution: dispense as prescribed</li></ul>
<div class="signature"><div class="line">Prescriber signature</div><div class="line">Date</div></div>
</body>
</html>`;
}
