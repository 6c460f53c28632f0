/** What the EPCS use cases share: their dependencies and the request's context. */
import type { Database } from '../../db/client.ts';
import type { StepUpFactors } from '../../lib/epcs.ts';
import type { Mailer } from '../../lib/mailer.ts';

export interface EpcsDeps {
  db: Database;
  factors: StepUpFactors;
  mailer: Mailer;
  now: () => Date;
}

export interface EpcsContext {
  userId: string;
  requestId: string;
  ip: string | null;
}
