/**
 * A standing rule started from an Action Needed refill request (issue 23): what the rules screen fills in. It
 * travels in the navigation state, never the URL (no patient name or drug in an address).
 */
export interface StandingRuleStart {
  /** Unknown from a request (the list does not name the practice): the screen offers the user's practices. */
  practiceId: string | null;
  prescriberId: string | null;
  patientId: string | null;
  patientName: string | null;
  drugName: string | null;
}

export const standingRuleState = (start: StandingRuleStart) => ({ standingRule: start });
export const standingRuleStartOf = (state: unknown): StandingRuleStart | null =>
  (state as { standingRule?: StandingRuleStart } | null)?.standingRule ?? null;
