/** FHIR's error shape: an OperationOutcome (R4) with the HTTP status the FHIR REST spec gives each failure. */
export type IssueCode =
  | 'invalid'
  | 'not-found'
  | 'login'
  | 'forbidden'
  | 'not-supported'
  | 'exception'
  | 'throttled'
  | 'processing'
  | 'business-rule'
  | 'conflict';

export interface OperationOutcome {
  resourceType: 'OperationOutcome';
  issue: { severity: 'error' | 'fatal'; code: IssueCode; diagnostics: string; expression?: string[] }[];
}

export class FhirError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: IssueCode,
    message: string,
    readonly expression?: string[],
  ) {
    super(message);
  }
}

export function operationOutcome(code: IssueCode, diagnostics: string, expression?: string[]): OperationOutcome {
  return {
    resourceType: 'OperationOutcome',
    issue: [{ severity: code === 'exception' ? 'fatal' : 'error', code, diagnostics, ...(expression ? { expression } : {}) }],
  };
}
