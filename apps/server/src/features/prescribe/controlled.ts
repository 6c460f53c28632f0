/**
 * A new controlled substance prescription signed with EPCS (issue 48, 21 CFR 1311.140; decision 0059). As a
 * controlled refill is (action-needed/controlled-refills.ts): the prescriber reviews exactly what will be signed with
 * the rule's statement, then signs it with the password and a passkey, security key or authenticator app code. The
 * order is kept with the content shown; signing builds the content again from it under the same rules (permission,
 * DEA registration for the schedule and state, Schedule II without refills, at most five for III to V) and refuses any
 * difference; then the patient (if new) and the prescription are written, the content signed and sent by eRx with the
 * signature, in one transaction. A controlled prescription is never faxed from here.
 */
import {
  controlledPrescriptionProblem,
  EPCS_LEGAL_TEXT,
  EPCS_MESSAGES,
  type EpcsContent,
  type EpcsPrescribed,
  type EpcsSigning,
  type NewPrescription,
  newPrescriptionSchema,
  type StepUpAnswer,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import { todayIsoOf } from '../../lib/clock.ts';
import {
  asEpcsIncident,
  isDeaSchedule,
  type PasskeySite,
  type StepUpFactors,
  signerFor,
  verifySigningStepUp,
} from '../../lib/epcs.ts';
import { contentHashOf, type EpcsSigner } from '../../lib/epcs-signature.ts';
import * as signings from '../../lib/epcs-signings.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { SignedInContext } from '../../lib/route-helpers.ts';
import * as repo from './repository.ts';
import { newOrderNumber, type Prescriber, writePrescription } from './write-prescription.ts';

const SIGNING_MS = 5 * 60_000;
const refillsError = (message: string) => new AppError('VALIDATION_FAILED', message, [{ path: 'body.order.refills', message }]);

export interface ControlledPrescribingDeps {
  db: Database;
  now: () => Date;
  factors: StepUpFactors;
  signer: EpcsSigner;
  /** The prescriber, when they may prescribe now; anyone else 404 (service.ts). */
  prescriber: (ctx: SignedInContext) => Promise<Prescriber>;
}

export function controlledPrescribing({ db, now, factors, signer, prescriber }: ControlledPrescribingDeps) {
  /** The content the prescriber signs for this order now, after every rule of who may sign what. */
  async function contentFor(tx: Executor, ctx: SignedInContext, me: Prescriber, input: NewPrescription) {
    const product = await repo.findProduct(tx, input.order.productId);
    if (!product)
      throw new AppError('VALIDATION_FAILED', 'Choose a product from the catalogue.', [
        { path: 'body.order.productId', message: 'Choose a product from the catalogue.' },
      ]);
    const schedule = product.deaSchedule;
    if (!product.isControlled || !isDeaSchedule(schedule)) throw new AppError('CONFLICT', EPCS_MESSAGES.notControlled);
    const { patientId, newPatient } = input.patient;
    const existing = patientId ? await repo.patientForSigning(tx, ctx.userId, patientId) : null;
    if (patientId && !existing) throw notFound('Patient');
    const patient = existing ?? {
      mdOfficeId: me.officeId,
      name: newPatient?.fullName.trim() ?? '',
      dob: newPatient?.dob ?? '',
      address: [
        newPatient?.address1,
        newPatient?.address2,
        newPatient?.city,
        [newPatient?.state, newPatient?.zip].filter(Boolean).join(' '),
      ]
        .filter(Boolean)
        .join(', '),
    };
    const today = todayIsoOf(now);
    const { prescriber: signerFacts, registration } = await signerFor(tx, ctx.userId, {
      practiceId: patient.mdOfficeId,
      schedule,
      today,
    });
    const problem = controlledPrescriptionProblem({ schedule, refills: input.order.refills });
    if (problem) throw refillsError(problem);
    const order = input.order;
    const content: EpcsContent = {
      kind: 'new-prescription',
      prescriptionId: null,
      issuedOn: today,
      signedOn: today,
      patient: { name: patient.name, dob: patient.dob, address: patient.address },
      drug: { name: product.name, strength: product.strength, form: product.form, ndc: product.ndc, schedule },
      quantity: order.quantity,
      daysSupply: order.daysSupply,
      sig: order.sig,
      refills: order.refills,
      prescriber: {
        name: signerFacts.name,
        npi: signerFacts.npi,
        dea: registration.number,
        address: await repo.practiceAddress(tx, patient.mdOfficeId),
      },
      dispenseAsWritten: !order.substitutionAllowed,
      notesToPharmacist: order.notesToPharmacist || null,
    };
    return { content, product, practiceId: patient.mdOfficeId };
  }

  return {
    async prepareControlledPrescription(ctx: SignedInContext, input: NewPrescription): Promise<EpcsSigning> {
      const me = await prescriber(ctx);
      return asEpcsIncident(db, ctx, me.officeId, { prescribing: true }, async () => {
        const { content, practiceId } = await contentFor(db, ctx, me, input);
        const strong = await factors.strongFactors(ctx.userId);
        if (strong.length === 0) throw new AppError('FORBIDDEN', EPCS_MESSAGES.strongFactorNeeded);
        const expiresAt = new Date(now().getTime() + SIGNING_MS);
        const signingId = await db.transaction(async (tx) => {
          const id = await signings.insertSigning(tx, {
            userId: ctx.userId,
            kind: 'new-prescription',
            prescriptionId: null,
            input,
            mdOfficeId: practiceId,
            prescriptionVersion: 0,
            content,
            contentHash: contentHashOf(content),
            expiresAt,
          });
          // The signing screen shows the patient: a read of patient data (a new patient has no record yet).
          await writeAudit(tx, {
            actorUserId: ctx.userId,
            action: 'prescription.epcs.shown',
            entityType: 'patient',
            entityId: input.patient.patientId ?? null,
            requestId: ctx.requestId,
            ip: ctx.ip,
            details: { signingId: id, newPatient: !input.patient.patientId },
          });
          return id;
        });
        return { signingId, expiresAt: expiresAt.toISOString(), content, legalText: EPCS_LEGAL_TEXT, factors: strong };
      });
    },

    async signControlledPrescription(
      ctx: SignedInContext,
      signingId: string,
      stepUp: StepUpAnswer,
      site: PasskeySite,
    ): Promise<EpcsPrescribed> {
      const open = await signings.lockOpenSigning(db, ctx.userId, signingId, 'new-prescription');
      if (!open) throw new AppError('NOT_FOUND', 'Signing not found. Start again.');
      const me = await prescriber(ctx);
      await verifySigningStepUp(db, factors, ctx, open.mdOfficeId, stepUp, site);
      return asEpcsIncident(db, ctx, open.mdOfficeId, { prescribing: true }, () =>
        db.transaction(async (tx) => {
          const signing = await signings.lockOpenSigning(tx, ctx.userId, signingId, 'new-prescription');
          if (!signing) throw new AppError('NOT_FOUND', 'Signing not found. Start again.');
          if (signing.expiresAt.getTime() <= now().getTime()) throw new AppError('CONFLICT', EPCS_MESSAGES.signingExpired);
          const input = newPrescriptionSchema.parse(signing.input);
          // Built again under the same rules, now: any difference from what was shown refuses.
          const { content, product } = await contentFor(tx, ctx, me, input);
          if (contentHashOf(content) !== signing.contentHash) throw new AppError('CONFLICT', EPCS_MESSAGES.changed);
          const signedAt = now();
          const signed = { ...signer.sign(content), signedAt: signedAt.toISOString() };
          const created = await writePrescription(tx, ctx, me, product, input, {
            via: 'eRx',
            at: signedAt,
            orderNumber: newOrderNumber(),
            epcs: { signingId, ...signed, content },
          });
          await signings.completeSigning(tx, signing.id, {
            signature: signed.signature,
            keyId: signed.keyId,
            factor: stepUp.passkey ? 'passkey' : 'totp',
            signedAt,
            prescriptionId: created.prescriptionId,
          });
          return { ...created, sentVia: 'eRx' as const, signature: signed };
        }),
      );
    },
  };
}
