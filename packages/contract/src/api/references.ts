/**
 * References (issue 42; docs/decisions/0048-reach-by-construction.md): every input field that names a record
 * says which kind of record it names, so the server can resolve it through that kind's one reach check before
 * any use case runs, and a test can refuse an input schema whose id field says nothing.
 *
 * The declaration travels as zod metadata (`x-reference`), so it is in the OpenAPI document too: a pharmacy or a
 * reviewer reads there which fields name what. `of` names a sibling field the record must belong to (a
 * prescription of that patient, an HCP of that practice): the pair is checked where both are given.
 */
import { z } from 'zod';

export const REFERENCE_KINDS = [
  'self',
  'patient',
  'prescription',
  'practice',
  'hcp',
  'user',
  'account',
  'appeal',
  'file',
  'rule',
  'coverage',
  'mention',
  'product',
  'decision',
  'webhookEndpoint',
  'webhookDelivery',
  'integrationClient',
  'passkey',
  'deaRegistration',
  'epcsChange',
  'epcsSigning',
  'auditPatient',
  'auditUser',
  'supportWindow',
] as const;
export type ReferenceKind = (typeof REFERENCE_KINDS)[number];

/** The metadata keys, as they appear in the JSON schema of a route. */
export const REFERENCE_KEY = 'x-reference';
export const REFERENCE_OF_KEY = 'x-reference-of';
/** Marks an id-like field that names no record of ours (a WebAuthn credential's id, the authenticator's own). */
export const NOT_A_REFERENCE_KEY = 'x-not-a-reference';

/** Declares that an id-like field names no record of ours, and why (the reach suite then leaves it be). */
export function notARecord<T extends z.ZodType>(schema: T, why: string): T {
  return schema.meta({ [NOT_A_REFERENCE_KEY]: why }) as T;
}

/** What the person reads when a reference is outside their reach (the one 404 of its kind). */
export const REFERENCE_NOT_FOUND: Record<ReferenceKind, string> = {
  self: 'User not found.',
  patient: 'Patient not found.',
  prescription: 'Prescription not found.',
  practice: 'Practice not found.',
  hcp: 'HCP or staff member not found.',
  user: 'User not found.',
  account: 'Account not found.',
  appeal: 'Appeal not found.',
  file: 'Attachment not found.',
  rule: 'Standing rule not found.',
  coverage: 'Coverage not found.',
  mention: 'Mention not found.',
  product: 'Product not found.',
  decision: 'Nothing to undo.',
  webhookEndpoint: 'Webhook endpoint not found.',
  webhookDelivery: 'Delivery not found.',
  integrationClient: 'Integration client not found.',
  passkey: 'Passkey not found.',
  deaRegistration: 'DEA registration not found.',
  epcsChange: 'Permission change not found.',
  epcsSigning: 'Signing not found. Start again.',
  auditPatient: 'Patient not found.',
  auditUser: 'User not found.',
  supportWindow: 'Support window not found.',
};

export interface ReferenceOptions {
  /** A sibling field (same object) naming the record this one must belong to. */
  of?: string;
}

/**
 * Declares that `schema` names a record of `kind`. Put it on the outermost schema of the field (around
 * `.optional()`, `optionalField(...)` or `z.array(...)` of ids), so the declaration reaches the JSON schema.
 */
export function ref<T extends z.ZodType>(kind: ReferenceKind, schema: T, options: ReferenceOptions = {}): T {
  return schema.meta({ [REFERENCE_KEY]: kind, ...(options.of ? { [REFERENCE_OF_KEY]: options.of } : {}) }) as T;
}

/** A required uuid naming a record of `kind`, with its kind's not-found message for a malformed one. */
export const refId = (kind: ReferenceKind, options: ReferenceOptions = {}) =>
  ref(kind, z.uuid({ message: REFERENCE_NOT_FOUND[kind] }), options);

/**
 * Fields that decide who reaches what (docs/decisions/0048): which practices a sales user serves, who belongs to a
 * practice, roles, account state and tenants. Only the routes in ACCESS_GRANTING_OWNERS accept them; any other
 * route that receives one answers 400 naming it (never a silent ignore a later route could trust).
 */
export const ACCESS_GRANTING_FIELDS = [
  'salesUserId',
  'role',
  'userType',
  'disabled',
  'disabledAt',
  'mdOfficeId',
  'mdStaffId',
  'tenantId',
  'practiceIds',
  'memberIds',
  'permissions',
  'scopes',
] as const;
export type AccessGrantingField = (typeof ACCESS_GRANTING_FIELDS)[number];

/**
 * The one owner of each access-granting field: `METHOD path` -> fields it accepts, and who may send them there
 * (the service checks the who). A schema that starts accepting such a field elsewhere fails the contract test.
 */
export const ACCESS_GRANTING_OWNERS: Record<string, { fields: AccessGrantingField[]; who: string }> = {
  'POST /api/mdo/v1/md-offices': { fields: ['salesUserId'], who: 'provider admin (a sales user: only themselves)' },
  'PUT /api/mdo/v1/md-offices/{id}': { fields: ['salesUserId'], who: 'provider admin (a sales user: only the current value)' },
  'POST /api/mdo/v1/accounts': { fields: ['role', 'mdOfficeId'], who: 'provider admin' },
  'PUT /api/mdo/v1/accounts/{id}': { fields: ['role', 'disabled'], who: 'provider admin, never on their own account' },
  'POST /api/mdo/v1/md-offices/{id}/staff': {
    fields: ['mdStaffId', 'role'],
    who: "the practice's managers (provider users): who belongs to it, and a new person's clinical role",
  },
  'PUT /api/mdo/v1/md-staff/{id}': { fields: ['role'], who: "the provider's users: an HCP's clinical role decides who signs" },
  'POST /api/mdo/v1/users/{userId}/support-access': { fields: ['mdOfficeId'], who: 'provider users, on a practice they manage' },
  'POST /api/mdo/v1/integration-clients': { fields: ['scopes'], who: 'provider admin' },
};

/** The path of every per-user route: the signed-in user's own id (another user's answers 404). */
/** The signed-in user's own id, as the spec puts it in paths: a uuid, but any text is answered 404 like another's. */
export const SELF_ID_MAX = 64;
export const selfParamsSchema = z.object({ userId: ref('self', z.string().max(SELF_ID_MAX)) });
