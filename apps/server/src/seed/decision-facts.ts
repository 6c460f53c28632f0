/**
 * The decision facts of a demo prescription (issue 22): last fill, refills left, when the open request came in,
 * a prior authorization on file, and the refill requests answered before (as timeline events). Drawn from a
 * stream of their own, so adding them left every other demo value as it was.
 */

import type { Faker } from '@faker-js/faker';
import { EVENT_TYPES, utcIsoDate } from '@hcp/contract';
import type * as schema from '../db/schema.ts';

type Insert<T extends { $inferInsert: unknown }> = T['$inferInsert'];
type Prescription = Insert<typeof schema.prescriptions>;
type PrescriptionEvent = Insert<typeof schema.prescriptionEvents>;

const DAY = 86_400_000;
const isoDay = (ms: number) => utcIsoDate(new Date(ms));

const needsAction = (rx: Prescription) =>
  Boolean(rx.needsRefillAuth || rx.phoneException || rx.hcpActionRequired || rx.priorAuthStatus || rx.substitutionStatus);

/** Sets the facts on `rx` and returns the earlier answers to put on its timeline. */
export function addDecisionFacts(g: Faker, rx: Prescription, now: number): PrescriptionEvent[] {
  const prescribedMs = (rx.prescribedAt as Date).getTime();
  const supply = rx.daysSupply ?? 30;
  const events: PrescriptionEvent[] = [];
  if (needsAction(rx)) {
    rx.requestReceivedAt = new Date(Math.max(prescribedMs, now - g.number.int({ min: 20 * 60_000, max: 9 * DAY })));
  }
  if (rx.needsRefillAuth) {
    // Most requests come a few days before the supply ends; some after the patient already ran out.
    const runOut = g.number.int({ min: -6, max: 21 });
    const lastFill = Math.max(prescribedMs, now - (supply - runOut) * DAY);
    rx.lastFilledOn = isoDay(lastFill);
    rx.refillsRemaining = g.number.float({ min: 0, max: 1 }) < 0.85 ? 0 : 1;
    if (g.number.float({ min: 0, max: 1 }) < 0.25)
      rx.priorAuthExpiresOn = isoDay(now + g.number.int({ min: -10, max: 300 }) * DAY);
    const answered = g.helpers.weightedArrayElement([
      { weight: 4, value: 0 },
      { weight: 3, value: 1 },
      { weight: 2, value: 2 },
      { weight: 1, value: 3 },
    ]);
    for (let i = answered; i >= 1; i -= 1) {
      const at = new Date(Math.max(prescribedMs + 60_000, lastFill - i * supply * DAY + 2 * DAY));
      const denied = g.number.float({ min: 0, max: 1 }) < 0.15;
      events.push(
        denied
          ? {
              prescriptionId: rx.id as string,
              type: EVENT_TYPES.refillDenied,
              createdAt: at,
              data: { reason: 'NEED_OFFICE_VISIT', source: 'seed' },
            }
          : {
              prescriptionId: rx.id as string,
              type: EVENT_TYPES.refillAuthorizedFax,
              createdAt: at,
              data: { refills: g.number.int({ min: 1, max: 3 }), sig: rx.sig, source: 'seed' },
            },
      );
    }
  } else if (g.number.float({ min: 0, max: 1 }) < 0.7 && rx.lastProcessedAt) {
    rx.lastFilledOn = isoDay((rx.lastProcessedAt as Date).getTime());
    rx.refillsRemaining = g.number.int({ min: 0, max: rx.refills ?? 0 });
  }
  return events;
}
