/**
 * Database schema (DESIGN §4). snake_case columns stay in this layer: repositories map rows to the
 * camelCase API shapes of packages/contract, so no column name reaches an answer.
 */
import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const id = () => uuid('id').primaryKey().defaultRandom();
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true }).notNull().defaultNow();

export const tenants = pgTable('tenants', {
  id: id(),
  key: text('key').notNull().unique(),
  name: text('name').notNull(),
  title: text('title').notNull(),
  colour: text('colour').notNull(),
  /** Hostnames on which this brand is forced (spec §1). */
  hostnames: text('hostnames').array().notNull().default(sql`'{}'::text[]`),
  /**
   * Sign-in policy (issue 48, decision 0060), set by the provider's admin: every user of the tenant must have a
   * strong factor (a passkey or an authenticator app); and whether a mailed code may stand in for one.
   */
  strongFactorRequired: boolean('strong_factor_required').notNull().default(false),
  emailCodesAllowed: boolean('email_codes_allowed').notNull().default(true),
  createdAt: createdAt(),
});

export const mdOffices = pgTable(
  'md_offices',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    name: text('name').notNull(),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    phone: text('phone'),
    fax: text('fax'),
    email: text('email'),
    isKeyAccount: boolean('is_key_account').notNull().default(false),
    /** VAM practices get a dedicated account manager in the support modal. */
    isVam: boolean('is_vam').notNull().default(false),
    accountManagerName: text('account_manager_name'),
    accountManagerPhone: text('account_manager_phone'),
    accountManagerEmail: text('account_manager_email'),
    notOnboarded: boolean('not_onboarded').notNull().default(false),
    prescribeVia: text('prescribe_via'),
    harrowPortalAccess: boolean('harrow_portal_access').notNull().default(false),
    prescribingEnabled: boolean('prescribing_enabled').notNull().default(false),
    communicationMode: text('communication_mode').notNull().default('email'),
    paHandling: text('pa_handling').notNull().default('PAViaMDDash'),
    refillRequestOption: text('refill_request_option').notNull().default('eRx'),
    /**
     * Who signs a prescriber's requests (issue 23, decision 0041): 'anyPrescriber' of the practice, or
     * 'ownOrCovering' — the prescriber, or a colleague named in `coverages` for the time they cover.
     */
    signingPolicy: text('signing_policy').notNull().default('anyPrescriber'),
    /** The practice's people must have a strong factor (issue 48, decision 0060), set by its prescribers. */
    strongFactorRequired: boolean('strong_factor_required').notNull().default(false),
    salesUserId: uuid('sales_user_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('md_offices_tenant_idx').on(t.tenantId), index('md_offices_name_idx').on(sql`lower(${t.name})`)],
);

export const mdStaff = pgTable(
  'md_staff',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    npi: text('npi'),
    specialty: text('specialty'),
    /** MD, PA, NP, DO, ARNP or STAFF. */
    role: text('role').notNull(),
    phone: text('phone'),
    fax: text('fax'),
    email: text('email'),
    communicationMode: text('communication_mode').notNull().default('email'),
    emailOptIn: text('email_opt_in').notNull().default('email'),
    contactAddresses: jsonb('contact_addresses').notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    index('md_staff_tenant_idx').on(t.tenantId),
    index('md_staff_npi_idx').on(t.npi),
    // One active record per NPI within a tenant: the same prescriber is added to more practices, not copied.
    uniqueIndex('md_staff_tenant_npi_idx').on(t.tenantId, t.npi).where(sql`${t.deletedAt} is null and ${t.npi} is not null`),
  ],
);

export const officeMembers = pgTable(
  'office_members',
  {
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    mdStaffId: uuid('md_staff_id')
      .notNull()
      .references(() => mdStaff.id),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.mdOfficeId, t.mdStaffId] }), index('office_members_staff_idx').on(t.mdStaffId)],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    /** mdo.user, provider.admin or provider.sales. */
    role: text('role').notNull(),
    /** Dotted user type, e.g. mdo_user.prescriber; the first segment is the kind. */
    userType: text('user_type').notNull(),
    displayName: text('display_name').notNull(),
    phone: text('phone'),
    mdStaffId: uuid('md_staff_id').references(() => mdStaff.id),
    mdOfficeId: uuid('md_office_id').references(() => mdOffices.id),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    googleSubject: text('google_subject'),
    skipPriorAuthDismissNotice: boolean('skip_prior_auth_dismiss_notice').notNull().default(false),
    skipErxConfirmation: boolean('skip_erx_confirmation').notNull().default(true),
    /** Our addition (issue 21): no 'what will be sent, to whom' check before a decision goes to the pharmacy. */
    skipSendConfirmation: boolean('skip_send_confirmation').notNull().default(false),
    /** The user gets the practice's e-mail digest of new requests (issue 20); off in their Preferences. */
    newRequestNotices: boolean('new_request_notices').notNull().default(true),
    /** A provider admin who reviews the audit trail (issue 49, decision 0061); granted by another admin. */
    privacyOfficer: boolean('privacy_officer').notNull().default(false),
    failedLogins: integer('failed_logins').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('users_email_idx').on(sql`lower(${t.email})`), uniqueIndex('users_google_idx').on(t.googleSubject)],
);

export const patients = pgTable(
  'patients',
  {
    id: id(),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: date('dob').notNull(),
    phoneNumbers: text('phone_numbers').array().notNull().default(sql`'{}'::text[]`),
    address1: text('address1'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('patients_office_idx').on(t.mdOfficeId),
    index('patients_name_idx').on(sql`lower(${t.lastName})`, sql`lower(${t.firstName})`),
    index('patients_dob_idx').on(t.dob),
  ],
);

export const drugProducts = pgTable('drug_products', {
  id: id(),
  ndc: text('ndc').notNull().unique(),
  name: text('name').notNull(),
  strength: text('strength'),
  form: text('form'),
  manufacturer: text('manufacturer').notNull(),
  /** 'bausch', 'tolsura' or null: the product lines the Rx-list filters select. */
  productLine: text('product_line'),
  isControlled: boolean('is_controlled').notNull().default(false),
  /** The DEA schedule of a controlled substance ('II' to 'V'; null when not controlled): what EPCS signing checks. */
  deaSchedule: text('dea_schedule'),
});

/** Alternatives the pharmacy proposes for a drug (alternative-medication screen and its printed request). */
export const drugAlternatives = pgTable(
  'drug_alternatives',
  {
    id: id(),
    drugName: text('drug_name').notNull(),
    alternativeName: text('alternative_name').notNull(),
    rank: integer('rank').notNull(),
  },
  (t) => [uniqueIndex('drug_alternatives_drug_idx').on(t.drugName, t.alternativeName)],
);

export const prescriptions = pgTable(
  'prescriptions',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    prescriberId: uuid('prescriber_id')
      .notNull()
      .references(() => mdStaff.id),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    drugName: text('drug_name').notNull(),
    strength: text('strength'),
    prescribedNdc: text('prescribed_ndc'),
    dispensedNdc: text('dispensed_ndc'),
    quantity: integer('quantity'),
    daysSupply: integer('days_supply'),
    refills: integer('refills').notNull().default(0),
    sig: text('sig'),
    needsRefillAuth: boolean('needs_refill_auth').notNull().default(false),
    refillPostponedUntil: date('refill_postponed_until'),
    /** An "always send by fax" standing rule routes this request's authorization by fax (issue 23). */
    faxRuleId: uuid('fax_rule_id').references((): AnyPgColumn => standingRules.id, { onDelete: 'set null' }),
    phoneException: boolean('phone_exception').notNull().default(false),
    substitutionStatus: text('substitution_status'),
    selectedAlternativeMed: text('selected_alternative_med'),
    priorAuthStatus: text('prior_auth_status'),
    priorAuthMethod: text('prior_auth_method'),
    hcpActionRequired: boolean('hcp_action_required').notNull().default(false),
    orderNumber: text('order_number'),
    orderStatus: text('order_status'),
    pending: boolean('pending').notNull().default(false),
    isWholesale: boolean('is_wholesale').notNull().default(false),
    price: numeric('price', { precision: 10, scale: 2 }),
    prescribedAt: timestamp('prescribed_at', { withTimezone: false }).notNull(),
    lastProcessedAt: timestamp('last_processed_at', { withTimezone: false }),
    /** Written in the portal (Prescribe Rx): no generic substitution when true, and the note to the pharmacist. */
    dispenseAsWritten: boolean('dispense_as_written').notNull().default(false),
    pharmacyNotes: text('pharmacy_notes'),
    /** Alternatives a pharmacy offered for this prescription (FHIR Task input); else the catalogue's. */
    offeredAlternatives: text('offered_alternatives').array(),
    /**
     * What a prescriber looks up before deciding (issue 22), as the pharmacy reports it: the last fill, the
     * refills the prescription still has, when the open request reached the portal and until when an approved
     * prior authorization is on file.
     */
    lastFilledOn: date('last_filled_on'),
    refillsRemaining: integer('refills_remaining'),
    requestReceivedAt: timestamp('request_received_at', { withTimezone: false }),
    priorAuthExpiresOn: date('prior_auth_expires_on'),
    /** The expiry a renewal reminder was raised for (issue 23): one reminder per expiry, dismissed or not. */
    priorAuthRenewalRemindedFor: date('prior_auth_renewal_reminded_for'),
    /** Bumped by every transition; guards against two people acting on one prescription at once. */
    version: integer('version').notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('prescriptions_office_prescribed_idx').on(t.mdOfficeId, t.prescribedAt),
    index('prescriptions_patient_idx').on(t.patientId),
    index('prescriptions_prescriber_idx').on(t.prescriberId),
    // The daily PA renewal round reads only prescriptions with a PA expiry (issue 23).
    index('prescriptions_pa_expiry_idx').on(t.priorAuthExpiresOn).where(sql`${t.priorAuthExpiresOn} is not null`),
    // Deleting a rule clears its routes (on delete set null): found by this, not a scan of every prescription.
    index('prescriptions_fax_rule_idx').on(t.faxRuleId).where(sql`${t.faxRuleId} is not null`),
    // The action-needed list reads only rows that need something: keep that index small.
    index('prescriptions_action_needed_idx')
      .on(t.mdOfficeId)
      .where(
        sql`${t.needsRefillAuth} or ${t.phoneException} or ${t.hcpActionRequired} or ${t.substitutionStatus} like 'SUBSTITUTION_PENDING_MD_SELECTION_%' or ${t.priorAuthStatus} in ('PRIOR_AUTH_PENDING_MD_SIGNATURE_PHARMACY','PRIOR_AUTH_CHART_NOTES_NEEDED','PRIOR_AUTH_ICD10_NEEDED','PRIOR_AUTH_REQUIRED','PRIOR_AUTH_RENEWAL_DUE')`,
      ),
  ],
);

/** One Prescribe Rx draft per user: what the form holds, kept across reloads until sent or discarded. */
export const prescriptionDrafts = pgTable('prescription_drafts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  payload: jsonb('payload').notNull(),
  updatedAt: updatedAt(),
});

export const prescriptionEvents = pgTable(
  'prescription_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    type: text('type').notNull(),
    actorUserId: uuid('actor_user_id').references(() => users.id),
    requestId: text('request_id'),
    data: jsonb('data').notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
    /** A decision taken back within its undo window (issue 22): it stays on the timeline, but counts for nothing. */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
  },
  (t) => [index('prescription_events_rx_idx').on(t.prescriptionId, t.createdAt)],
);

export const comments = pgTable(
  'comments',
  {
    id: id(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    prescriptionId: uuid('prescription_id').references(() => prescriptions.id),
    authorUserId: uuid('author_user_id').references(() => users.id),
    authorName: text('author_name').notNull(),
    fromPatient: boolean('from_patient').notNull().default(false),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('comments_patient_idx').on(t.patientId, t.createdAt)],
);

/** A comment addressed to an office; read state is per office (spec §7 office-mentions). */
export const commentMentions = pgTable(
  'comment_mentions',
  {
    id: id(),
    commentId: uuid('comment_id')
      .notNull()
      .references(() => comments.id),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    readAt: timestamp('read_at', { withTimezone: true }),
    readByUserId: uuid('read_by_user_id').references(() => users.id),
  },
  (t) => [index('comment_mentions_unread_idx').on(t.mdOfficeId).where(sql`${t.readAt} is null`)],
);

export const appeals = pgTable(
  'appeals',
  {
    id: id(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    status: text('status').notNull(),
    npi: text('npi').notNull(),
    accessKeyHash: text('access_key_hash'),
    accessKeyExpiresAt: timestamp('access_key_expires_at', { withTimezone: true }),
    payer: text('payer'),
    denialReason: text('denial_reason'),
    denialDate: date('denial_date'),
    whatIsNeeded: text('what_is_needed'),
    clinicalNotesRequired: boolean('clinical_notes_required').notNull().default(false),
    /** Wrong NPIs given with this appeal's key; too many lock the appeal for a while. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    draft: jsonb('draft').notNull().default(sql`'{}'::jsonb`),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('appeals_prescription_idx').on(t.prescriptionId), index('appeals_key_idx').on(t.accessKeyHash)],
);

export const appealFiles = pgTable(
  'appeal_files',
  {
    id: id(),
    appealId: uuid('appeal_id')
      .notNull()
      .references(() => appeals.id),
    slot: text('slot').notNull(),
    originalName: text('original_name').notNull(),
    storedName: text('stored_name').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('appeal_files_slot_idx').on(t.appealId, t.slot)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: id(),
    familyId: uuid('family_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    rotatedAt: timestamp('rotated_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

export const mfaChallenges = pgTable('mfa_challenges', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  tokenHash: text('token_hash').notNull().unique(),
  /** The mailed code's HMAC; null until one is mailed (an account with an authenticator app is mailed on request). */
  codeHash: text('code_hash'),
  attempts: integer('attempts').notNull().default(0),
  /** How many times a new code was sent for this challenge (capped), and when the last one went out. */
  resends: integer('resends').notNull().default(0),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  consumedAt: timestamp('consumed_at', { withTimezone: true }),
  createdAt: createdAt(),
});

export const passwordResetTokens = pgTable('password_reset_tokens', {
  id: id(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  tokenHash: text('token_hash').notNull().unique(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  createdAt: createdAt(),
});

/**
 * A user's authenticator app (issue 48, TOTP): one per user. The secret is sealed (AES-256-GCM under a key derived
 * from the signing key: lib/sealed.ts), so a copy of the database alone makes no codes.
 */
export const authenticatorApps = pgTable('authenticator_apps', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id),
  secretSealed: text('secret_sealed').notNull(),
  /** When a code from the app was first typed: until then a set-up in progress, not a factor. */
  confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  /** The last 30-second step a code was taken for: each code works once (RFC 6238 §5.2). */
  lastStep: bigint('last_step', { mode: 'number' }),
  createdAt: createdAt(),
});

/** One-time recovery codes (issue 48): only their hashes are kept; a used one keeps when it was used. */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('recovery_codes_user_idx').on(t.userId)],
);

/** A user's passkeys and security keys (issue 48, WebAuthn): the public key only; the private key never leaves them. */
export const passkeys = pgTable(
  'passkeys',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** The credential's id as the authenticator gave it (base64url). */
    credentialId: text('credential_id').notNull().unique(),
    /** The COSE public key (base64url). */
    publicKey: text('public_key').notNull(),
    /** The authenticator's signature counter: one that goes backwards is a cloned key. */
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: jsonb('transports').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    name: text('name').notNull(),
    /** The attestation as registered (its format and the authenticator's model, AAGUID): EPCS asks what signed. */
    attestationFormat: text('attestation_format').notNull(),
    aaguid: text('aaguid').notNull(),
    backedUp: boolean('backed_up').notNull().default(false),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('passkeys_user_idx').on(t.userId)],
);

/** A WebAuthn challenge handed to the browser, used once within its few minutes (registration or sign-in). */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: id(),
    /** Null for a sign-in by passkey alone: who signs in is known only from the key that answers. */
    userId: uuid('user_id').references(() => users.id),
    purpose: text('purpose').notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('passkey_challenges_user_idx').on(t.userId, t.purpose)],
);

export const rememberMeDevices = pgTable(
  'remember_me_devices',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('remember_me_user_idx').on(t.userId)],
);

export const loginAttempts = pgTable(
  'login_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    email: text('email').notNull(),
    ip: text('ip'),
    succeeded: boolean('succeeded').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('login_attempts_email_idx').on(sql`lower(${t.email})`, t.createdAt)],
);

/** A repeated write with the same request id answers the stored first answer (DESIGN §3). */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    requestId: text('request_id').notNull(),
    userId: uuid('user_id').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    statusCode: integer('status_code').notNull(),
    body: jsonb('body'),
    /** Who holds the claim: a retry that takes over an abandoned claim gets a new token (plugins/idempotency.ts). */
    claimToken: uuid('claim_token'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.requestId] })],
);

export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    /** fax, erx or email. */
    channel: text('channel').notNull(),
    prescriptionId: uuid('prescription_id').references(() => prescriptions.id),
    recipient: text('recipient'),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /** A prescriber's decision the pharmacy's systems hear of (contract WEBHOOK_EVENTS); null for mail. */
    eventType: text('event_type'),
    /** The timeline entry the decision wrote (its delivery shows beside it). */
    eventId: bigint('event_id', { mode: 'number' }).references(() => prescriptionEvents.id),
    /** Commit order of decisions on one prescription (their row lock serialises them): deliveries keep it. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    /** When the decision was turned into deliveries for the endpoints that asked for it. */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    /**
     * Held until then (issue 22): a prescriber's decision may be undone for a few seconds, and nothing leaves
     * before. The timer is this column, so it survives restarts and holds on every instance.
     */
    notBefore: timestamp('not_before', { withTimezone: true }).notNull().defaultNow(),
    /** Undone within its window: never dispatched. */
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
  },
  (t) => [
    index('outbox_pending_idx').on(t.createdAt).where(sql`${t.status} = 'pending'`),
    index('outbox_undispatched_idx')
      .on(t.seq)
      .where(sql`${t.eventType} is not null and ${t.dispatchedAt} is null and ${t.cancelledAt} is null`),
    index('outbox_event_idx').on(t.eventId),
    // A Task reads the newest decision on its prescription (issue 46): one index step, not a scan of the outbox.
    index('outbox_prescription_idx').on(t.prescriptionId, t.seq),
  ],
);

/**
 * What an undo puts back (issue 22; decision 0030): per decision and prescription, the columns the decision
 * changed with their earlier values, and the version it left, so an undo restores exactly that and only while
 * nobody changed the prescription since. Kept a day (housekeeping); the window itself is seconds.
 */
export const decisionUndos = pgTable(
  'decision_undos',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    requestId: text('request_id').notNull(),
    /** The session (refresh-token family) the decision was made in: its undo ends with it (issue 42). */
    sessionFamilyId: uuid('session_family_id'),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    /** The contract's PrescriptionAction: whose right an undo needs. */
    action: text('action').notNull(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => prescriptionEvents.id),
    previous: jsonb('previous').notNull(),
    versionAfter: integer('version_after').notNull(),
    undoUntil: timestamp('undo_until', { withTimezone: true }).notNull(),
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.requestId, t.prescriptionId] }),
    index('decision_undos_created_idx').on(t.createdAt),
  ],
);

/** Where a tenant's pharmacy systems hear of decisions (Standard Webhooks; docs/decisions/0024). */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events').array().notNull(),
    /** whsec_… (Standard Webhooks); needed in clear to sign, so only admins' answers ever carry it, once. */
    secret: text('secret').notNull(),
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    disabledAt: timestamp('disabled_at', { withTimezone: true }),
    /** admin, or gone (the receiver answered 410). */
    disabledReason: text('disabled_reason'),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhook_endpoints_tenant_idx').on(t.tenantId)],
);

/** One decision to one endpoint: retried with the same id (the webhook-id header) until delivered or dead. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id),
    outboxId: uuid('outbox_id')
      .notNull()
      .references(() => outbox.id),
    /** The decision's outbox seq: deliveries of one prescription to one endpoint go in this order. */
    eventSeq: bigint('event_seq', { mode: 'number' }).notNull(),
    eventType: text('event_type').notNull(),
    prescriptionId: uuid('prescription_id'),
    /** The exact bytes signed and sent (text, not jsonb: a retry must send the same body). */
    body: text('body').notNull(),
    /** pending (due at next_attempt_at), sending (leased to one worker), delivered, dead. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseToken: uuid('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    firstAttemptAt: timestamp('first_attempt_at', { withTimezone: true }),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('webhook_deliveries_once_idx').on(t.endpointId, t.outboxId),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index('webhook_deliveries_order_idx')
      .on(t.endpointId, t.prescriptionId, t.eventSeq)
      .where(sql`${t.status} in ('pending', 'sending')`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_outbox_idx').on(t.outboxId),
  ],
);

export const auditLog = pgTable(
  'audit_log',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    actorUserId: uuid('actor_user_id'),
    action: text('action').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    requestId: text('request_id'),
    ip: text('ip'),
    details: jsonb('details').notNull().default(sql`'{}'::jsonb`),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_log_entity_idx').on(t.entityType, t.entityId),
    // The user activity report (issue 49): one user's rows in a date range, newest first.
    index('audit_log_actor_time_idx').on(t.actorUserId, t.createdAt),
    // Sealing and retention walk the rows by time.
    index('audit_log_created_idx').on(t.createdAt),
  ],
);

/**
 * The patients an audit row is about (issue 49, decision 0061): filled by a trigger on audit_log from the row's
 * entity and the ids in its details (a prescription names its patient), so every present and future writer is
 * covered. The patient access report reads it by patient and time.
 */
export const auditSubjects = pgTable(
  'audit_subjects',
  {
    auditId: bigint('audit_id', { mode: 'number' }).notNull(),
    patientId: uuid('patient_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.auditId, t.patientId] }), index('audit_subjects_patient_idx').on(t.patientId, t.createdAt)],
);

/**
 * Seals of the audit trail (issue 49, decision 0061): each covers the rows with ids in [first_id, last_id] — their ids
 * and a SHA-256 of each row, in order — and the seal before it, under an HMAC whose key the database does not hold.
 */
export const auditSeals = pgTable('audit_seals', {
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  firstId: bigint('first_id', { mode: 'number' }).notNull(),
  lastId: bigint('last_id', { mode: 'number' }).notNull(),
  rowIds: bigint('row_ids', { mode: 'number' }).array().notNull(),
  /** The rows' SHA-256 digests, hex, concatenated in id order. */
  rowDigests: text('row_digests').notNull(),
  prevHash: text('prev_hash').notNull(),
  hash: text('hash').notNull(),
  sealedAt: timestamp('sealed_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A privacy officer's review of a support window or an unusual-access finding (issue 49): who looked, when, and their
 * note. One per item: a second review of the same item is refused (409), never a second row.
 */
export const auditReviews = pgTable(
  'audit_reviews',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    itemKey: text('item_key').notNull(),
    kind: text('kind').notNull(),
    subjectUserId: uuid('subject_user_id').references(() => users.id),
    reviewedBy: uuid('reviewed_by')
      .notNull()
      .references(() => users.id),
    note: text('note').notNull(),
    reviewedAt: timestamp('reviewed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('audit_reviews_item_idx').on(t.tenantId, t.itemKey)],
);

/** Where the chain starts once retention purged its oldest seals: the last purged seal's id and hash (one row). */
export const auditChainAnchor = pgTable('audit_chain_anchor', {
  id: integer('id').primaryKey().default(1),
  sealId: bigint('seal_id', { mode: 'number' }).notNull(),
  lastRowId: bigint('last_row_id', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  purgedRows: bigint('purged_rows', { mode: 'number' }).notNull().default(0),
  updatedAt: updatedAt(),
});

export const featureFlags = pgTable('feature_flags', {
  key: text('key').primaryKey(),
  enabled: boolean('enabled').notNull(),
  description: text('description'),
  updatedAt: updatedAt(),
});

/** Global settings such as the default brand (spec §1 "a global setting can override the default"). */
export const appSettings = pgTable('app_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedAt: updatedAt(),
});

export const zipCodes = pgTable('zip_codes', {
  zip: text('zip').primaryKey(),
  city: text('city').notNull(),
  state: text('state').notNull(),
});

/**
 * Deny-list of access tokens (by jti) and whole token families (by family id) until they expire; used
 * when no Redis is configured. Entries past `expires_at` are ignored and may be purged.
 */
export const revokedTokens = pgTable(
  'revoked_tokens',
  {
    id: text('id').primaryKey(),
    kind: text('kind').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('revoked_tokens_expires_idx').on(t.expiresAt)],
);

/**
 * Support access (break-the-glass, decision 0020): a provider user's read-only window on one practice's
 * patients, with the reason they gave. Times come from the database clock, so every instance agrees on
 * whether a window is open; the practice's own users read these rows afterwards.
 */
export const supportAccessGrants = pgTable(
  'support_access_grants',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    reason: text('reason').notNull(),
    requestId: text('request_id'),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [
    index('support_access_user_idx').on(t.userId, t.expiresAt),
    index('support_access_office_idx').on(t.mdOfficeId, t.startedAt),
  ],
);

/**
 * Integration clients (issue 19, decision 0022): a pharmacy system's registration for SMART Backend Services:
 * its public keys (inline or at an https address) and the scopes it may ask for, within one tenant.
 */
export const integrationClients = pgTable('integration_clients', {
  id: id(),
  tenantId: uuid('tenant_id')
    .notNull()
    .references(() => tenants.id),
  clientId: text('client_id').notNull().unique(),
  name: text('name').notNull(),
  jwks: jsonb('jwks'),
  jwksUrl: text('jwks_url'),
  scopes: text('scopes').array().notNull(),
  createdBy: uuid('created_by'),
  createdAt: createdAt(),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
});

/** Client assertions already used (their jti), kept until they expire: a replayed assertion is refused. */
export const integrationAssertions = pgTable(
  'integration_assertions',
  {
    clientId: text('client_id').notNull(),
    jti: text('jti').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.clientId, t.jti] })],
);

/**
 * A pharmacy's business identifiers of the records it sent through the FHIR API (issue 19): its patient number,
 * its order number, its task number. One identifier names one record per tenant and resource type, so a resend
 * (`PUT Task?identifier=…`) finds the record instead of making a second one.
 */
export const fhirIdentifiers = pgTable(
  'fhir_identifiers',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    resourceType: text('resource_type').notNull(),
    system: text('system').notNull(),
    value: text('value').notNull(),
    entityId: uuid('entity_id').notNull(),
    clientId: text('client_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.resourceType, t.system, t.value] }),
    index('fhir_identifiers_entity_idx').on(t.entityId),
  ],
);

/**
 * Earlier versions of the resources a pharmacy wrote (issue 46 part 1), for `GET [type]/[id]/_history/[vid]`: each
 * version a pharmacy's own write made, and each version a decision's webhook message carried, as it was answered
 * (the current version is always read live). Kept FHIR_VERSION_DAYS (housekeeping), then purged.
 */
export const fhirVersions = pgTable(
  'fhir_versions',
  {
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    resourceType: text('resource_type').notNull(),
    entityId: uuid('entity_id').notNull(),
    versionId: text('version_id').notNull(),
    resource: jsonb('resource').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.resourceType, t.entityId, t.versionId] }), index('fhir_versions_created_idx').on(t.createdAt)],
);

/**
 * Work a pharmacy put in as a FHIR Task: one row per Task, pointing at the prescription whose action flag it
 * raised. The portal's screens read the prescription as before; this row keeps what FHIR needs back (status,
 * the pharmacy's business status, inputs, version).
 */
export const inboundTasks = pgTable(
  'inbound_tasks',
  {
    id: id(),
    tenantId: uuid('tenant_id')
      .notNull()
      .references(() => tenants.id),
    clientId: text('client_id').notNull(),
    prescriptionId: uuid('prescription_id')
      .notNull()
      .references(() => prescriptions.id),
    category: text('category').notNull(),
    status: text('status').notNull(),
    businessStatus: text('business_status'),
    input: jsonb('input').notNull().default(sql`'{}'::jsonb`),
    note: text('note'),
    /** The appeal an appeal Task opened (its link and key went to the pharmacy once, in Task.output). */
    appealId: uuid('appeal_id').references(() => appeals.id),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('inbound_tasks_prescription_idx').on(t.prescriptionId, t.category),
    index('inbound_tasks_tenant_updated_idx').on(t.tenantId, t.updatedAt),
  ],
);

/** The practice's e-mail digest (issue 20): when it last went and the last pharmacy request it counted. */
export const officeDigests = pgTable('office_digests', {
  mdOfficeId: uuid('md_office_id')
    .primaryKey()
    .references(() => mdOffices.id),
  lastSentAt: timestamp('last_sent_at', { withTimezone: true }).notNull(),
  lastEventId: bigint('last_event_id', { mode: 'number' }).notNull(),
});

/**
 * One notice to one recipient (decision 0025): an e-mail digest or a fax cover sheet, tried until sent or given up,
 * with the same lease and back-off as webhook deliveries. Counts only: no patient data in any column.
 */
export const officeNotices = pgTable(
  'office_notices',
  {
    id: id(),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    /** email or fax. */
    channel: text('channel').notNull(),
    /** An e-mail address or a fax number. */
    recipient: text('recipient').notNull(),
    /** The mail's subject, or the fax's title. */
    subject: text('subject').notNull(),
    /** The mail's text; for a fax, the cover sheet as base64 PDF. */
    body: text('body').notNull(),
    /** pending (due at next_attempt_at), sending (leased), sent, dead. */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    leaseToken: uuid('lease_token'),
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    lastError: text('last_error'),
    /** The fax gateway's id of the sent fax. */
    externalId: text('external_id'),
    createdAt: createdAt(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('office_notices_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    index('office_notices_office_idx').on(t.mdOfficeId, t.createdAt),
  ],
);

/** The one-time link printed on a fax cover sheet: stored hashed, opens the practice's list once after sign-in. */
export const noticeLinks = pgTable('notice_links', {
  id: id(),
  tokenHash: text('token_hash').notNull().unique(),
  mdOfficeId: uuid('md_office_id')
    .notNull()
    .references(() => mdOffices.id),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
  usedBy: uuid('used_by'),
  createdAt: createdAt(),
});

/**
 * Leases of cluster-wide periodic jobs (issue 24): the instance that takes a job's lease runs it, the others skip
 * until it expires, so a job runs once per period however many instances there are.
 */
export const jobLeases = pgTable('job_leases', {
  name: text('name').primaryKey(),
  /** Which instance holds it (a random id per process). */
  holder: text('holder').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

/** Binary content; node-postgres answers a Buffer, PGlite a Uint8Array: both become a Buffer here. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength)),
});

/**
 * Attachments kept in the database (the default file store, lib/file-store): one row per stored object, its
 * content in chunks so neither side ever holds a whole file. `complete` turns true after the last chunk; an
 * object that never completes (a crash mid-upload) is swept by housekeeping like any unreferenced one.
 */
export const storedFiles = pgTable(
  'stored_files',
  {
    key: text('key').primaryKey(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull().default(0),
    chunks: integer('chunks').notNull().default(0),
    complete: boolean('complete').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('stored_files_created_idx').on(t.createdAt)],
);

export const storedFileChunks = pgTable(
  'stored_file_chunks',
  {
    key: text('key')
      .notNull()
      .references(() => storedFiles.key, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.seq] })],
);

/**
 * Standing rules (issue 23, decision 0038): a practice's "stop asking" answers to refill requests, matched by the
 * contract's rule (rules/standing-rules.ts) when a request arrives and when a rule is saved. `answered_count` is
 * raised in the transaction that answers.
 */
export const standingRules = pgTable(
  'standing_rules',
  {
    id: id(),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    name: text('name').notNull(),
    action: text('action').notNull(),
    prescriberId: uuid('prescriber_id').references(() => mdStaff.id),
    patientId: uuid('patient_id').references(() => patients.id),
    drugName: text('drug_name'),
    ndc: text('ndc'),
    note: text('note'),
    enabled: boolean('enabled').notNull().default(true),
    answeredCount: integer('answered_count').notNull().default(0),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    version: integer('version').notNull().default(0),
  },
  (t) => [index('standing_rules_office_idx').on(t.mdOfficeId)],
);

/**
 * Decisions prepared for a prescriber's signature (issue 23, decision 0039): one per prescription, what the staff
 * chose (`decision`, the contract's prepared-decision input) and the prescription's version then, so a signature never
 * goes to a request that changed since. Removed when any decision on the prescription is made.
 */
export const preparedDecisions = pgTable('prepared_decisions', {
  prescriptionId: uuid('prescription_id')
    .primaryKey()
    .references(() => prescriptions.id),
  decision: jsonb('decision').notNull(),
  preparedBy: uuid('prepared_by')
    .notNull()
    .references(() => users.id),
  preparedAt: timestamp('prepared_at', { withTimezone: true }).notNull().defaultNow(),
  prescriptionVersion: integer('prescription_version').notNull(),
});

/**
 * Covering prescribers (issue 23, decision 0041): within a practice, who signs for whom and from when until when.
 * Read only where the practice's signing policy is 'ownOrCovering'. Ended early by setting `ended_at` (kept: the
 * timeline's signatures must stay explainable).
 */
export const coverages = pgTable(
  'coverages',
  {
    id: id(),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    coveringStaffId: uuid('covering_staff_id')
      .notNull()
      .references(() => mdStaff.id),
    coveredStaffId: uuid('covered_staff_id')
      .notNull()
      .references(() => mdStaff.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: createdAt(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endedBy: uuid('ended_by').references(() => users.id),
  },
  (t) => [
    index('coverages_covering_idx').on(t.coveringStaffId).where(sql`${t.endedAt} is null`),
    index('coverages_office_idx').on(t.mdOfficeId),
    check('coverages_not_self', sql`${t.coveringStaffId} <> ${t.coveredStaffId}`),
    check('coverages_period', sql`${t.endsAt} > ${t.startsAt}`),
  ],
);

/**
 * A prescriber's DEA registrations (issue 48, decision 0059): number, schedules, state and last valid day. Kept on
 * the prescriber (md_staff), entered by their own account; removing one keeps the row (what was signed under it).
 */
export const deaRegistrations = pgTable(
  'dea_registrations',
  {
    id: id(),
    mdStaffId: uuid('md_staff_id')
      .notNull()
      .references(() => mdStaff.id),
    number: text('number').notNull(),
    schedules: text('schedules').array().notNull(),
    state: text('state').notNull(),
    expiresOn: date('expires_on').notNull(),
    addedBy: uuid('added_by').references(() => users.id),
    createdAt: createdAt(),
    removedAt: timestamp('removed_at', { withTimezone: true }),
  },
  (t) => [
    index('dea_registrations_staff_idx').on(t.mdStaffId),
    uniqueIndex('dea_registrations_number_idx').on(t.mdStaffId, t.number).where(sql`${t.removedAt} is null`),
  ],
);

/**
 * Permission to sign controlled substances at a practice (21 CFR 1311.125): each grant or revocation is entered by
 * one person and takes effect when a second, a DEA registrant, approves it; both with two factors, both recorded.
 * A prescriber's permission is the action of their latest approved change.
 */
export const epcsChanges = pgTable(
  'epcs_changes',
  {
    id: id(),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    mdStaffId: uuid('md_staff_id')
      .notNull()
      .references(() => mdStaff.id),
    /** 'grant' or 'revoke'. */
    action: text('action').notNull(),
    enteredBy: uuid('entered_by')
      .notNull()
      .references(() => users.id),
    enteredFactor: text('entered_factor').notNull(),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
    approvedBy: uuid('approved_by').references(() => users.id),
    approvedFactor: text('approved_factor'),
    approvedAt: timestamp('approved_at', { withTimezone: true }),
    /** The approver confirmed the DEA registration and state authorization are current (1311.125(b)). */
    registrationVerified: boolean('registration_verified').notNull().default(false),
    declinedBy: uuid('declined_by').references(() => users.id),
    declinedAt: timestamp('declined_at', { withTimezone: true }),
  },
  (t) => [
    index('epcs_changes_subject_idx').on(t.mdOfficeId, t.mdStaffId, t.approvedAt),
    // One change waits at a time for a prescriber at a practice.
    uniqueIndex('epcs_changes_pending_idx')
      .on(t.mdOfficeId, t.mdStaffId)
      .where(sql`${t.approvedAt} is null and ${t.declinedAt} is null`),
  ],
);

/**
 * A controlled prescription shown for signing and, once signed, its signature (21 CFR 1311.120(b)(20), .205):
 * the content as shown (RFC 8785 JSON), its SHA-256 and the prescription's version then; the signing checks both
 * again under the lock, so anything changed after it was shown is refused. Used once, within minutes.
 */
export const epcsSignings = pgTable(
  'epcs_signings',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id),
    /** 'refill-authorization' of an existing prescription, or a 'new-prescription' written in Prescribe Rx. */
    kind: text('kind').notNull().default('refill-authorization'),
    /** The prescription signed; a new prescription's is set when it is signed (it is created then). */
    prescriptionId: uuid('prescription_id').references(() => prescriptions.id),
    mdOfficeId: uuid('md_office_id')
      .notNull()
      .references(() => mdOffices.id),
    /** A new prescription's order as the prescriber entered it: the signing builds the content from it again. */
    input: jsonb('input'),
    prescriptionVersion: integer('prescription_version').notNull(),
    content: jsonb('content').notNull(),
    contentHash: text('content_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    signature: text('signature'),
    keyId: text('key_id'),
    factor: text('factor'),
    createdAt: createdAt(),
  },
  (t) => [
    index('epcs_signings_prescription_idx').on(t.prescriptionId),
    index('epcs_signings_office_signed_idx').on(t.mdOfficeId, t.signedAt),
  ],
);
