/**
 * Writing a new prescription (Prescribe Rx, decision 0018), shared by the ordinary send and an EPCS signature (issue
 * 48): in the caller's transaction, the patient (found in the prescriber's practices, or new), the prescription, its
 * event with the pharmacy's message (eRx or fax), the audit row, and the draft cleared.
 */
import { randomInt } from 'node:crypto';
import { type CreatedPrescription, EVENT_TYPES, type NewPrescription, type PrescribeVia, splitFullName } from '@hcp/contract';
import type { Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { recordDecision } from '../../lib/decisions.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { findPatientInScope } from '../../lib/office-scope.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

export const newOrderNumber = () => `P${String(randomInt(10_000_000, 99_999_999))}`;

export type Prescriber = NonNullable<Awaited<ReturnType<typeof repo.findPrescriber>>> & { officeId: string; mdStaffId: string };
export type Product = NonNullable<Awaited<ReturnType<typeof repo.findProduct>>>;

export async function writePrescription(
  tx: Executor,
  ctx: SignedInContext,
  me: Prescriber,
  product: Product,
  input: NewPrescription,
  options: { via: PrescribeVia; at: Date; orderNumber: string; epcs?: Record<string, unknown> },
): Promise<CreatedPrescription> {
  const { via, at, orderNumber, epcs } = options;
  let patientId: string;
  let officeId = me.officeId;
  const { patientId: existingId, newPatient: p } = input.patient;
  if (existingId) {
    // A patient outside the prescriber's practices does not exist for them (DESIGN §3).
    const patient = await findPatientInScope(tx, ctx.userId, existingId);
    if (!patient) throw notFound('Patient');
    patientId = patient.id;
    officeId = patient.mdOfficeId;
  } else if (p) {
    patientId = await repo.insertPatient(tx, {
      ...splitFullName(p.fullName),
      mdOfficeId: me.officeId,
      dob: p.dob,
      phoneNumbers: [p.phoneNumber],
      address1: [p.address1, p.address2].filter(Boolean).join(', '),
      city: p.city,
      state: p.state,
      zip: p.zip,
    });
  } else {
    throw new AppError('VALIDATION_FAILED', 'Choose a patient or add a new one.');
  }
  const order = input.order;
  const prescriptionId = await repo.insertPrescription(tx, {
    patientId,
    prescriberId: me.mdStaffId,
    mdOfficeId: officeId,
    drugName: product.name,
    strength: product.strength,
    prescribedNdc: product.ndc,
    quantity: order.quantity,
    daysSupply: order.daysSupply,
    refills: order.refills,
    sig: order.sig,
    dispenseAsWritten: !order.substitutionAllowed,
    pharmacyNotes: order.notesToPharmacist || null,
    orderNumber,
    orderStatus: 'Processing',
    pending: true,
    prescribedAt: at,
    lastProcessedAt: at,
  });
  await recordDecision(tx, {
    prescriptionId,
    type: EVENT_TYPES.prescribed,
    actorUserId: ctx.userId,
    requestId: ctx.requestId,
    data: {
      via,
      quantity: order.quantity,
      refills: order.refills,
      dispenseAsWritten: !order.substitutionAllowed,
      ...(epcs && { epcs }),
    },
    message: {
      channel: via === 'Fax' ? 'fax' : 'erx',
      recipient: 'provider-pharmacy',
      payload: {
        kind: 'new-prescription',
        orderNumber,
        ndc: product.ndc,
        drug: `${product.name} ${product.strength ?? ''}`.trim(),
        quantity: order.quantity,
        daysSupply: order.daysSupply,
        refills: order.refills,
        sig: order.sig,
        dispenseAsWritten: !order.substitutionAllowed,
        notes: order.notesToPharmacist,
        prescriberNpi: me.staffNpi,
        prescriberName: me.displayName,
        // A controlled substance signed with EPCS: the content as signed and its signature, for the pharmacy to verify.
        ...(epcs && { epcs }),
      },
    },
  });
  await writeAudit(tx, {
    actorUserId: ctx.userId,
    action: 'prescription.create',
    entityType: 'prescription',
    entityId: prescriptionId,
    requestId: ctx.requestId,
    ip: ctx.ip,
    details: { via, newPatient: !existingId, ...(epcs && { epcs: true }) },
  });
  await repo.deleteDraft(tx, ctx.userId);
  return { prescriptionId, patientId, orderNumber, sentVia: via, drugName: product.name };
}
