/**
 * Prescribe Rx (docs/decisions/0018-prescribe.md): a prescriber whose office enabled prescribing (and the
 * feature flag) writes a prescription for a patient of their practices, or a new patient; it is created in
 * one transaction with its event, the outbox message (eRx or fax, by the office's preference) and the audit
 * row. A controlled substance is signed with EPCS instead (controlled.ts). Anyone else: 404.
 */

import {
  type CatalogueProduct,
  CONTROLLED_SUBSTANCE_MESSAGE,
  type CreatedPrescription,
  canPrescribe,
  type NewPrescription,
  type PrescriptionDraft,
  toPrescribeVia,
} from '@hcp/contract';
import type { Database } from '../../db/client.ts';
import type { StepUpFactors } from '../../lib/epcs.ts';
import type { EpcsSigner } from '../../lib/epcs-signature.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import { controlledPrescribing } from './controlled.ts';
import * as repo from './repository.ts';
import { newOrderNumber, type Prescriber, writePrescription } from './write-prescription.ts';

const CATALOGUE_LIMIT = 20;
const fieldError = (path: string, message: string) => new AppError('VALIDATION_FAILED', message, [{ path, message }]);

export function createPrescribeService(deps: {
  db: Database;
  now: () => Date;
  isPrescribingEnabled: () => Promise<boolean>;
  /** Signing controlled substances (EPCS, issue 48): two factors now, and the application's signing key. */
  epcs: { factors: StepUpFactors; signer: EpcsSigner };
}) {
  const { db, now } = deps;

  /** The prescriber, when they may prescribe now (spec §6); anyone else gets 404. */
  async function prescriber(ctx: SignedInContext): Promise<Prescriber> {
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
    ...controlledPrescribing({ db, now, prescriber, ...deps.epcs }),

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
      const orderNumber = newOrderNumber();

      return db.transaction((tx) => writePrescription(tx, ctx, me, product, input, { via, at, orderNumber }));
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
