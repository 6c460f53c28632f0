/** Pieces every resource mapping shares: meta, identifiers, references, and the 422 of a business rule. */
import { type FhirDateKind, type FhirDateRange, parseFhirDate } from '@hcp/contract';
import { FhirError } from '../outcome.ts';

export const meta = (updatedAt: Date, versionId: string | number = updatedAt.getTime()) => ({
  versionId: String(versionId),
  lastUpdated: updatedAt.toISOString(),
});

export interface BusinessIdentifier {
  system: string;
  value: string;
}

/** `system|value` (or a bare value) of a FHIR token search parameter. */
export function parseToken(param: string): { system: string | null; value: string } {
  const bar = param.indexOf('|');
  return bar === -1 ? { system: null, value: param } : { system: param.slice(0, bar) || null, value: param.slice(bar + 1) };
}

/** A rule of our profile the resource breaks (valid FHIR, but not what the portal can take): 422 naming the element. */
export function unprocessable(expression: string, message: string): never {
  throw new FhirError(422, 'processing', message, [expression]);
}

/** Not valid FHIR at all (R4 §3.1.0.1.3: 400 for a resource that fails basic validation), naming the element. */
export function invalid(expression: string, message: string): never {
  throw new FhirError(400, 'invalid', message, [expression]);
}

/**
 * The range of a FHIR date or dateTime element that must name a real day (contract rule, issue 43), or a 400 naming
 * it: 2026-02-30 is refused, never read as March 2.
 */
export function fhirDateOf(text: unknown, kind: FhirDateKind, expression: string): FhirDateRange {
  const range = typeof text === 'string' ? parseFhirDate(text, kind) : null;
  if (!range) {
    const shape = kind === 'date' ? 'YYYY-MM-DD' : 'YYYY-MM-DD or YYYY-MM-DDThh:mm:ss+zz:zz';
    invalid(expression, `${expression} is not a date that exists; write it as ${shape}.`);
  }
  return range;
}

/** The first identifier with both a system and a value: the pharmacy's business identifier of the record. */
export function businessIdentifier(
  identifiers: readonly { system?: string; value?: string }[] | undefined,
  expression: string,
): BusinessIdentifier {
  const found = identifiers?.find((i) => i.system && i.value);
  if (!found?.system || !found.value) {
    unprocessable(expression, `${expression} needs one identifier with a system and a value (your own number for it).`);
  }
  if (found.system.length > 300 || found.value.length > 200) unprocessable(expression, `${expression} is too long.`);
  return { system: found.system, value: found.value };
}

/** The id of a literal reference `Type/id` (a relative reference to this server), or a 422 naming it. */
export function referencedId(reference: { reference?: string } | undefined, type: string, expression: string): string {
  const match = reference?.reference ? new RegExp(`^${type}/([A-Za-z0-9\\-.]{1,64})$`).exec(reference.reference) : null;
  if (!match?.[1]) unprocessable(expression, `${expression} must reference a ${type} as "${type}/<id>".`);
  return match[1];
}
