/**
 * Integration clients (issue 19): a pharmacy's systems sign in with SMART Backend Services (OAuth 2.0 client
 * credentials with a signed JWT assertion, RFC 7523) and reach the FHIR API of their tenant. Calls of our design.
 */
import { z } from 'zod';
import { singleLineSchema } from './fields.ts';

/** SMART v1 system scopes: system/<Resource|*>.<read|write|*>. */
export const SMART_SCOPE_PATTERN = /^system\/(\*|[A-Z][A-Za-z]+)\.(read|write|\*)$/;
export const SMART_ACCESS_TOKEN_SECONDS = 300;
/** The longest an assertion may live (SMART: no more than five minutes in the future). */
export const SMART_ASSERTION_MAX_SECONDS = 300;
export const SMART_ASSERTION_ALGORITHMS = ['RS384', 'ES384'] as const;
export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Whether a scope the client was given covers a requested one (`system/*.read` covers `system/Task.read`). */
export function scopeCovers(granted: string, requested: string): boolean {
  const g = SMART_SCOPE_PATTERN.exec(granted);
  const r = SMART_SCOPE_PATTERN.exec(requested);
  if (!g || !r) return false;
  return (g[1] === '*' || g[1] === r[1]) && (g[2] === '*' || g[2] === r[2]);
}

export const smartScopeSchema = z
  .string()
  .regex(SMART_SCOPE_PATTERN, { message: 'Use SMART system scopes such as system/Task.write.' });

const jwkSchema = z.object({ kty: z.enum(['RSA', 'EC']), kid: z.string().max(200).optional() }).passthrough();
export const jwksSchema = z.object({ keys: z.array(jwkSchema).min(1).max(10) });

/** POST integration-clients: a name, the client's public keys (a key set, or the https address of one), its scopes. */
export const integrationClientInputSchema = z
  .object({
    name: singleLineSchema(120, 'Keep the name under 120 characters.', { min: 2, message: 'Name the client.' }),
    jwks: jwksSchema.optional(),
    jwksUrl: z
      .url({ protocol: /^https$/, message: 'The key set address must be https.' })
      .max(2000)
      .optional(),
    scopes: z.array(smartScopeSchema).min(1, { message: 'Give at least one scope.' }).max(20),
  })
  .superRefine((value, ctx) => {
    if (Boolean(value.jwks) === Boolean(value.jwksUrl)) {
      ctx.addIssue({ code: 'custom', path: ['jwks'], message: 'Give the public key set or its https address (one of the two).' });
    }
  });
export type IntegrationClientInput = z.infer<typeof integrationClientInputSchema>;

export const integrationClientSchema = z.object({
  id: z.string(),
  clientId: z.string(),
  name: z.string(),
  scopes: z.array(z.string()),
  jwksUrl: z.string().nullable(),
  /** Keys given inline (their count): the keys themselves are not echoed back. */
  keyCount: z.number().int(),
  createdAt: z.string(),
  disabled: z.boolean(),
});
export type IntegrationClient = z.infer<typeof integrationClientSchema>;
export const integrationClientListSchema = z.object({ records: z.array(integrationClientSchema) });

/** POST /oauth2/token (form-encoded, RFC 6749 §4.4 + RFC 7523). */
export const tokenRequestSchema = z.object({
  grant_type: z.literal('client_credentials'),
  client_assertion_type: z.literal(CLIENT_ASSERTION_TYPE),
  client_assertion: z.string().min(1).max(16_384),
  scope: z.string().trim().min(1).max(2000),
});
export const tokenResponseSchema = z.object({
  access_token: z.string(),
  token_type: z.literal('bearer'),
  expires_in: z.number().int(),
  scope: z.string(),
});
/** RFC 6749 §5.2: the OAuth error shape (the token endpoint's own, not the portal's). */
export const oauthErrorSchema = z.object({ error: z.string(), error_description: z.string() });
