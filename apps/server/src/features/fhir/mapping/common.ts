/** Pieces every resource mapping shares: meta, identifiers, references, and the 422 of a business rule. */
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
