/**
 * Where failures are reported (spec §8: action failures are logged with the prescription id under
 * fixed names). A no-op sink by default; a monitoring provider plugs in with `setErrorReporter`.
 * Never pass patient names or tokens here: ids only.
 */
export type ErrorReporter = (name: string, context: Record<string, unknown>) => void;

let current: ErrorReporter = () => {};

export function reportError(name: string, context: Record<string, unknown>): void {
  current(name, context);
}

export function setErrorReporter(next: ErrorReporter): void {
  current = next;
}
