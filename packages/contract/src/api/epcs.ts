/**
 * EPCS (issue 48, decision 0059): a prescriber's DEA registrations, the two-person grant of permission to sign
 * controlled substances, the signing itself, and the reports. The rules and words are in rules/epcs.ts.
 */
import { z } from 'zod';
import { DEA_SCHEDULES, deaNumberProblem, EPCS_FACTORS, EPCS_LIMITS, EPCS_MESSAGES, normalizeDeaNumber } from '../rules/epcs.ts';
import { isoDateSchema, passwordSchema, stateSchema } from './fields.ts';
import { ref, refId, selfParamsSchema } from './references.ts';
import { passkeyAssertionSchema, totpCodeSchema } from './sign-in-factors.ts';

export const deaNumberSchema = z
  .string()
  .max(20, { message: EPCS_MESSAGES.deaFormat })
  .transform(normalizeDeaNumber)
  .superRefine((value, ctx) => {
    const problem = deaNumberProblem(value);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

export const deaScheduleSchema = z.enum(DEA_SCHEDULES);

export const deaRegistrationInputSchema = z.object({
  number: deaNumberSchema,
  schedules: z
    .array(deaScheduleSchema)
    .min(1, { message: EPCS_MESSAGES.schedulesRequired })
    .max(DEA_SCHEDULES.length)
    .transform((list) => DEA_SCHEDULES.filter((s) => list.includes(s))),
  state: stateSchema,
  expiresOn: isoDateSchema,
});
export type DeaRegistrationInput = z.input<typeof deaRegistrationInputSchema>;

export const deaRegistrationSchema = z.object({
  id: z.string(),
  number: z.string(),
  schedules: z.array(deaScheduleSchema),
  state: z.string(),
  expiresOn: z.string(),
  addedAt: z.string(),
});
export type DeaRegistration = z.infer<typeof deaRegistrationSchema>;

/**
 * Two factors at this moment (21 CFR 1311.115, .125(c), .140(a)(4)): the password and a hard token — a passkey or
 * security key (its WebAuthn answer to the step-up challenge) or a code from the authenticator app. Exactly one.
 */
export const stepUpSchema = z
  .object({
    currentPassword: passwordSchema,
    passkey: passkeyAssertionSchema.optional(),
    totpCode: totpCodeSchema.optional(),
  })
  .refine((v) => (v.passkey === undefined) !== (v.totpCode === undefined), {
    message: 'Use your passkey or security key, or enter a code from your authenticator app.',
    path: ['totpCode'],
  });
export type StepUp = z.input<typeof stepUpSchema>;
/** A step-up as the server reads it (after parsing). */
export type StepUpAnswer = z.infer<typeof stepUpSchema>;

export const epcsPermissionSchema = z.enum(['granted', 'none']);
export const epcsChangeSchema = z.object({
  id: z.string(),
  action: z.enum(['grant', 'revoke']),
  enteredBy: z.string(),
  enteredAt: z.string(),
  /** The caller may approve it: a prescriber with a current DEA registration, not its enterer nor its subject. */
  mayApprove: z.boolean(),
});
export type EpcsChange = z.infer<typeof epcsChangeSchema>;

export const epcsPrescriberSchema = z.object({
  hcpId: z.string(),
  name: z.string(),
  isSelf: z.boolean(),
  permission: epcsPermissionSchema,
  /** A current DEA registration for the practice's state is on record. */
  hasCurrentRegistration: z.boolean(),
  pending: epcsChangeSchema.nullable(),
});
export type EpcsPrescriber = z.infer<typeof epcsPrescriberSchema>;

export const epcsPracticeSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.string().nullable(),
  prescribers: z.array(epcsPrescriberSchema),
});
export type EpcsPractice = z.infer<typeof epcsPracticeSchema>;

/** What the Controlled substances page shows the caller. */
export const epcsOverviewSchema = z.object({
  /** The caller is a prescriber (has a DEA registration to keep). */
  isPrescriber: z.boolean(),
  registrations: z.array(deaRegistrationSchema),
  /** The caller's strong factors: signing and approving need one. */
  strongFactors: z.array(z.enum(EPCS_FACTORS)),
  practices: z.array(epcsPracticeSchema),
});
export type EpcsOverview = z.infer<typeof epcsOverviewSchema>;

export const registrationParamsSchema = selfParamsSchema.extend({ registrationId: refId('deaRegistration') });
export const epcsChangeEnteredSchema = z.object({ changeId: z.string() });
export const proposeEpcsChangeSchema = z.object({
  practiceId: refId('practice'),
  hcpId: ref('hcp', z.string().uuid({ message: 'Choose a prescriber from the list.' }), { of: 'practiceId' }),
  action: z.enum(['grant', 'revoke']),
  stepUp: stepUpSchema,
});
export type ProposeEpcsChange = z.input<typeof proposeEpcsChangeSchema>;
export const epcsChangeParamsSchema = z.object({ changeId: refId('epcsChange') });
export const approveEpcsChangeSchema = z.object({
  /** 21 CFR 1311.125(b): the DEA registration and state authorization were checked as current. */
  registrationVerified: z.literal(true, { message: EPCS_MESSAGES.verifyRequired }),
  stepUp: stepUpSchema,
});
export type ApproveEpcsChange = z.input<typeof approveEpcsChangeSchema>;

/** A controlled refill authorization, as the prescriber means to sign it. */
export const prepareEpcsRefillSchema = z.object({
  refills: z.number().int().min(0).max(EPCS_LIMITS.maxRefills, { message: EPCS_MESSAGES.tooManyRefills }),
  sig: z.string().trim().min(1, { message: 'Sig is required.' }).max(1000),
});
export type PrepareEpcsRefill = z.input<typeof prepareEpcsRefillSchema>;

/** What is signed (21 CFR 1306.05 and 1311.140(a)(1)): shown before signing, and what the signature covers. */
export const epcsContentSchema = z.object({
  kind: z.enum(['refill-authorization', 'new-prescription']),
  /** The prescription refilled; null for a new one (it is created when signed). */
  prescriptionId: z.string().nullable(),
  issuedOn: z.string(),
  signedOn: z.string(),
  patient: z.object({ name: z.string(), dob: z.string(), address: z.string() }),
  drug: z.object({
    name: z.string(),
    strength: z.string().nullable(),
    form: z.string().nullable(),
    ndc: z.string().nullable(),
    schedule: deaScheduleSchema,
  }),
  quantity: z.number().nullable(),
  daysSupply: z.number().nullable(),
  sig: z.string(),
  refills: z.number(),
  prescriber: z.object({ name: z.string(), npi: z.string().nullable(), dea: z.string(), address: z.string() }),
  /** A new prescription: dispense as written (no generic substitution), and the note to the pharmacist. */
  dispenseAsWritten: z.boolean().optional(),
  notesToPharmacist: z.string().nullable().optional(),
});
export type EpcsContent = z.infer<typeof epcsContentSchema>;

export const epcsSigningSchema = z.object({
  signingId: z.string(),
  expiresAt: z.string(),
  content: epcsContentSchema,
  legalText: z.string(),
  /** Which second factors the caller can use here. */
  factors: z.array(z.enum(EPCS_FACTORS)),
});
export type EpcsSigning = z.infer<typeof epcsSigningSchema>;
export const epcsSigningParamsSchema = z.object({ signingId: refId('epcsSigning') });
export const signEpcsSchema = z.object({ stepUp: stepUpSchema });

/** How a pharmacy checks a signature: the content as RFC 8785 JSON, its SHA-256, an Ed25519 signature by a published key. */
export const epcsSignatureSchema = z.object({
  algorithm: z.literal('EdDSA'),
  keyId: z.string(),
  contentHash: z.string(),
  signature: z.string(),
  signedAt: z.string(),
});
export type EpcsSignature = z.infer<typeof epcsSignatureSchema>;
/** A new controlled prescription signed: created, sent by eRx with its signature. */
export const epcsPrescribedSchema = z.object({
  prescriptionId: z.string(),
  patientId: z.string(),
  orderNumber: z.string(),
  sentVia: z.literal('eRx'),
  drugName: z.string(),
  signature: epcsSignatureSchema,
});
export type EpcsPrescribed = z.infer<typeof epcsPrescribedSchema>;

export const epcsSignedSchema = z.object({
  status: z.literal('OK'),
  prescriptionIds: z.array(z.string()),
  signature: epcsSignatureSchema,
});
export type EpcsSigned = z.infer<typeof epcsSignedSchema>;

/** The published keys (a JSON Web Key Set of Ed25519 keys). */
export const epcsKeysSchema = z.object({
  keys: z.array(
    z.object({
      kty: z.literal('OKP'),
      crv: z.literal('Ed25519'),
      x: z.string(),
      kid: z.string(),
      alg: z.literal('EdDSA'),
      use: z.literal('sig'),
    }),
  ),
});

/** 21 CFR 1311.215 and .150: a day's signed controlled prescriptions, and the incidents, for a practice. */
export const epcsReportQuerySchema = z.object({ day: isoDateSchema });
export const epcsReportParamsSchema = z.object({ practiceId: refId('practice') });
export const epcsReportSchema = z.object({
  day: z.string(),
  signed: z.array(
    z.object({
      signedAt: z.string(),
      prescriber: z.string(),
      dea: z.string(),
      patient: z.string(),
      drug: z.string(),
      schedule: deaScheduleSchema,
      quantity: z.number().nullable(),
      refills: z.number(),
      keyId: z.string(),
    }),
  ),
  incidents: z.array(z.object({ at: z.string(), kind: z.string(), who: z.string(), detail: z.string() })),
});
export type EpcsReport = z.infer<typeof epcsReportSchema>;
