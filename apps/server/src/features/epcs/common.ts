/** What the EPCS use cases share: their dependencies and the request's context. */
import type { Database } from '../../db/client.ts';
import type { StepUpFactors } from '../../lib/epcs.ts';
import type { Mailer } from '../../lib/mailer.ts';

export interface EpcsDeps {
  db: Database;
  factors: StepUpFactors;
  mailer: Mailer;
  now: () => Date;
  /** The zone of the report's day (AUDIT_TIME_ZONE): the administrators' calendar day, not UTC's. */
  timeZone: string;
}

export interface EpcsContext {
  userId: string;
  requestId: string;
  ip: string | null;
}
