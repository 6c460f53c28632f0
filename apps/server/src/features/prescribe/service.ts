/**
 * Prescribe Rx (docs/decisions/0018-prescribe.md): a prescriber whose office enabled prescribing (and the
 * feature flag) writes a prescription for a patient of their practices, or a new patient; it is created in
 * one transaction with its event, the outbox message (eRx or fax, by the office's preference) and the audit
 * row. Controlled substances are refused (they need EPCS). Anyone else: 404.
 */

import { randomInt } from 'node:crypto';
import {
  type CatalogueProduct,
  CONTROLLED_SUBSTANCE_MESSAGE,
  type CreatedPrescription,
  canPrescribe,
  EVENT_TYPES,
  type NewPrescription,
  type PrescriptionDraft,
  splitFullName,
  toPrescribeVia,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { recordDecision } from '../../lib/decisions.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { findPatientInScope } from '../../lib/office-scope.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';

const CATALOGUE_LIMIT = 20;
const fieldError = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, [{ path, message }]);

export function createPrescribeService(deps: { db: Database; now: () => Date; isPrescribingEnabled: () => Promise<boolean> }) {
  const { db, now } = deps;

  /** The prescriber, when they may prescribe now (spec §6); anyone else gets 404. */
  async function prescriber(ctx: SignedInContext) {
    const row = await repo.findPrescriber(db, ctx.userId);
    const flag = await deps.isPrescribingEnabled();
    const officeId = row?.officeId;
    const mdStaffId = row?.mdStaffId;
    const allowed =
      row !== null &&
      canPrescribe(
        {
          role: row.role,
          mdOfficeUser: { userType: row.userType, role: row.staffRole },
          mdOfficePrefs: { prescribingEnabled: row.prescribingEnabled },
        },
        { isHcpPrescribingEnabled: flag, isHarrowPortalEnabled: false },
      );
    if (!allowed || !officeId || !mdStaffId) throw notFound();
    return { ...row, officeId, mdStaffId };
  }

  return {
    async catalogue(ctx: SignedInContext, searchText: string): Promise<CatalogueProduct[]> {
      await prescriber(ctx);
      return repo.searchCatalogue(db, searchText, CATALOGUE_LIMIT);
    },

    async create(ctx: SignedInContext, input: NewPrescription): Promise<CreatedPrescription> {
      const me = await prescriber(ctx);
      const product = await repo.findProduct(db, input.order.productId);
      if (!product) throw fieldError('body.order.productId', 'Choose a product from the catalogue.');
      if (product.isControlled) throw fieldError('body.order.productId', CONTROLLED_SUBSTANCE_MESSAGE);
      const via = toPrescribeVia(me.prescribeVia) ?? 'eRx';
      const at = now();
      const orderNumber = `P${String(randomInt(10_000_000, 99_999_999))}`;

      return db.transaction(async (tx) => {
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
          data: { via, quantity: order.quantity, refills: order.refills, dispenseAsWritten: !order.substitutionAllowed },
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
          details: { via, newPatient: !existingId },
        });
        await repo.deleteDraft(tx, ctx.userId);
        return { prescriptionId, patientId, orderNumber, sentVia: via, drugName: product.name };
      });
    },

    async draft(ctx: SignedInContext): Promise<PrescriptionDraft> {
      await prescriber(ctx);
      const row = await repo.readDraft(db, ctx.userId);
      return { draft: (row?.payload as Record<string, unknown>) ?? null, updatedAt: row?.updatedAt.toISOString() ?? null };
    },

    async saveDraft(ctx: SignedInContext, draft: Record<string, unknown>): Promise<PrescriptionDraft> {
      await prescriber(ctx);
      const row = await repo.writeDraft(db, ctx.userId, draft);
      return { draft, updatedAt: row?.updatedAt.toISOString() ?? null };
    },

    async discardDraft(ctx: SignedInContext): Promise<PrescriptionDraft> {
      await prescriber(ctx);
      await repo.deleteDraft(db, ctx.userId);
      return { draft: null, updatedAt: null };
    },
  };
}
export type PrescribeService = ReturnType<typeof createPrescribeService>;
