/**
 * Signing a controlled substance's refill authorization (issue 48, 21 CFR 1311.140; decision 0059). Two steps:
 *
 * 1. `prepareControlledRefill` checks the prescriber may sign it — their own permission at the practice (granted
 *    by two people), a current DEA registration for the drug's schedule and the practice's state, the schedule's
 *    refill limits — and answers exactly what will be signed, with the legal text the rule requires. The content
 *    is kept with its hash and the prescription's version.
 * 2. `signControlledRefill` takes two factors at that moment (password and a passkey, security key or app code),
 *    then, under the prescription's lock, builds the content again: if anything changed since it was shown, nothing
 *    is signed. The content is signed (Ed25519 over its RFC 8785 form), kept with the signing, and sent to the
 *    pharmacy with the authorization, at once (never held for undo).
 *
 * Never in bulk, by a standing rule or as a prepared decision (act.ts refuses any other authorization of a
 * controlled substance); a covering prescriber needs their own permission and registration. Refusals and failed
 * authentications are incidents of the practice's EPCS report.
 */
import {
  CONFLICT_MESSAGES,
  controlledRefillProblem,
  EPCS_LEGAL_TEXT,
  EPCS_MESSAGES,
  type EpcsContent,
  type EpcsSigned,
  type EpcsSigning,
  EVENT_TYPES,
  type PrepareEpcsRefill,
  type StepUpAnswer,
} from '@hcp/contract';
import type { Database, Executor } from '../../db/client.ts';
import { writeAudit } from '../../lib/audit.ts';
import {
  asEpcsIncident,
  isDeaSchedule,
  type PasskeySite,
  type StepUpFactors,
  signerFor,
  verifySigningStepUp,
} from '../../lib/epcs.ts';
import { contentHashOf, type EpcsSignatureRecord, type EpcsSigner } from '../../lib/epcs-signature.ts';
import * as signings from '../../lib/epcs-signings.ts';
import { AppError } from '../../lib/errors.ts';
import { assertMayAct } from '../../lib/office-scope.ts';
import { assertMaySign } from '../../lib/signing.ts';
import type { Act, ActionContext } from './act.ts';
import { cleared } from './act.ts';
import * as repo from './controlled-repository.ts';

/** How long the signing screen's content stays signable. */
export const SIGNING_MS = 5 * 60_000;

export interface ControlledRefillDeps {
  db: Database;
  now: () => Date;
  todayIso: () => string;
  factors: StepUpFactors;
  signer: EpcsSigner;
}

export function controlledRefillActions(act: Act, deps: ControlledRefillDeps) {
  const { db, factors, signer, now, todayIso } = deps;

  /** The content a prescriber signs for this prescription now, after every rule of who may sign what. */
  async function contentFor(tx: Executor, userId: string, prescriptionId: string, input: { refills: number; sig: string }) {
    const facts = await repo.signingFactsOf(tx, prescriptionId);
    if (!facts) throw new AppError('NOT_FOUND', 'Prescription not found.');
    const schedule = facts.schedule;
    if (!isDeaSchedule(schedule)) throw new AppError('CONFLICT', 'This is not a controlled substance: authorize it as usual.');
    const today = todayIso();
    const { prescriber, registration } = await signerFor(tx, userId, { practiceId: facts.mdOfficeId, schedule, today });
    const problem = controlledRefillProblem({ schedule, refills: input.refills, issuedOn: facts.issuedOn, today });
    if (problem === EPCS_MESSAGES.tooManyRefills) {
      throw new AppError('VALIDATION_FAILED', problem, [{ path: 'body.refills', message: problem }]);
    }
    if (problem) throw new AppError('CONFLICT', problem);
    const content: EpcsContent = {
      kind: 'refill-authorization',
      prescriptionId: facts.id,
      issuedOn: facts.issuedOn,
      signedOn: today,
      patient: { name: facts.patientName, dob: facts.patientDob, address: facts.patientAddress },
      drug: { name: facts.drugName, strength: facts.strength, form: facts.form, ndc: facts.ndc, schedule },
      quantity: facts.quantity,
      daysSupply: facts.daysSupply,
      sig: input.sig,
      refills: input.refills,
      prescriber: { name: prescriber.name, npi: prescriber.npi, dea: registration.number, address: facts.officeAddress },
    };
    return { content, facts };
  }

  const asIncident = <T>(ctx: ActionContext, practiceId: string | null, prescriptionId: string, work: () => Promise<T>) =>
    asEpcsIncident(db, ctx, practiceId, { prescriptionId }, work);

  return {
    async prepareControlledRefill(ctx: ActionContext, prescriptionId: string, input: PrepareEpcsRefill): Promise<EpcsSigning> {
      const practiceId = (await repo.signingFactsOf(db, prescriptionId))?.mdOfficeId ?? null;
      return asIncident(ctx, practiceId, prescriptionId, async () => {
        await assertMayAct(db, ctx.userId, 'refillAuthorizedErx');
        const { content, facts } = await contentFor(db, ctx.userId, prescriptionId, {
          refills: input.refills,
          sig: input.sig.trim(),
        });
        if (!facts.needsRefillAuth) throw new AppError('CONFLICT', CONFLICT_MESSAGES.refillAuthorizedErx);
        await assertMaySign(db, ctx.userId, 'refillAuthorizedErx', [facts]);
        const strong = await factors.strongFactors(ctx.userId);
        if (strong.length === 0) throw new AppError('FORBIDDEN', EPCS_MESSAGES.strongFactorNeeded);
        const expiresAt = new Date(now().getTime() + SIGNING_MS);
        const signingId = await db.transaction(async (tx) => {
          const id = await signings.insertSigning(tx, {
            userId: ctx.userId,
            kind: 'refill-authorization',
            prescriptionId,
            mdOfficeId: facts.mdOfficeId,
            prescriptionVersion: facts.version,
            content,
            contentHash: contentHashOf(content),
            expiresAt,
          });
          // The signing screen shows the patient: a read of patient data.
          await writeAudit(tx, {
            actorUserId: ctx.userId,
            action: 'prescription.epcs.shown',
            entityType: 'prescription',
            entityId: prescriptionId,
            requestId: ctx.requestId,
            ip: ctx.ip,
            details: { signingId: id },
          });
          return id;
        });
        return { signingId, expiresAt: expiresAt.toISOString(), content, legalText: EPCS_LEGAL_TEXT, factors: strong };
      });
    },

    async signControlledRefill(
      ctx: ActionContext,
      signingId: string,
      stepUp: StepUpAnswer,
      site: PasskeySite,
    ): Promise<EpcsSigned> {
      const open = await signings.lockOpenSigning(db, ctx.userId, signingId, 'refill-authorization');
      if (!open?.prescriptionId) throw new AppError('NOT_FOUND', 'Signing not found. Start again.');
      const prescriptionId = open.prescriptionId;
      await verifySigningStepUp(db, factors, ctx, open.mdOfficeId, stepUp, site);
      const shown = open.content as EpcsContent;
      let signed: (EpcsSignatureRecord & { signedAt: string }) | undefined;
      let content: EpcsContent | undefined;
      const result = await asIncident(ctx, open.mdOfficeId, prescriptionId, () =>
        act(
          {
            ...ctx,
            epcs: {
              async beforeWrite(tx, rows) {
                const signing = await signings.lockOpenSigning(tx, ctx.userId, signingId, 'refill-authorization');
                if (!signing) throw new AppError('NOT_FOUND', 'Signing not found. Start again.');
                if (signing.expiresAt.getTime() <= now().getTime()) throw new AppError('CONFLICT', EPCS_MESSAGES.signingExpired);
                if (rows[0]?.version !== signing.prescriptionVersion) throw new AppError('CONFLICT', EPCS_MESSAGES.changed);
                // Built again from what is on record now, under the lock: any difference from what was shown refuses.
                content = (await contentFor(tx, ctx.userId, prescriptionId, { refills: shown.refills, sig: shown.sig })).content;
                if (contentHashOf(content) !== signing.contentHash) throw new AppError('CONFLICT', EPCS_MESSAGES.changed);
                const signedAt = now();
                signed = { ...signer.sign(content), signedAt: signedAt.toISOString() };
                await signings.completeSigning(tx, signing.id, {
                  signature: signed.signature,
                  keyId: signed.keyId,
                  factor: stepUp.passkey ? 'passkey' : 'totp',
                  signedAt,
                });
              },
            },
          },
          'refillAuthorizedErx',
          [prescriptionId],
          () => {
            if (!signed || !content) throw new Error('signed before the content was checked');
            // The content as signed travels with the decision: the pharmacy (eRx, webhook, FHIR Task) verifies it
            // against the published key without asking us.
            const epcs = { signingId, ...signed, content };
            return {
              event: EVENT_TYPES.refillAuthorizedErx,
              data: { refills: content.refills, sig: content.sig, epcs },
              changes: { ...cleared, refills: content.refills, sig: content.sig },
              notify: {
                channel: 'erx',
                message: { type: 'refill-authorized', refills: content.refills, sig: content.sig, epcs },
              },
            };
          },
        ),
      );
      if (!signed) throw new Error('EPCS decision without a signature');
      return { status: 'OK', prescriptionIds: result.prescriptionIds, signature: signed };
    },
  };
}
