/**
 * EPCS signings (issue 48, decision 0059): what was shown for signing — a controlled refill's authorization or a new
 * controlled prescription — kept with its hash until it is signed, once, by its own prescriber. Shared by the two
 * features that sign (action-needed, prescribe).
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { epcsSignings } from '../db/schema.ts';

export type EpcsSigningKind = 'refill-authorization' | 'new-prescription';

export async function insertSigning(
  db: Executor,
  row: {
    userId: string;
    kind: 'refill-authorization' | 'new-prescription';
    prescriptionId: string | null;
    input?: unknown;
    mdOfficeId: string;
    prescriptionVersion: number;
    content: unknown;
    contentHash: string;
    expiresAt: Date;
  },
): Promise<string> {
  const [inserted] = await db.insert(epcsSignings).values(row).returning({ id: epcsSignings.id });
  if (!inserted) throw new Error('EPCS signing not stored');
  return inserted.id;
}

/** The caller's own signing not yet signed, locked; null when there is none (used, or someone else's). */
export async function lockOpenSigning(db: Executor, userId: string, signingId: string, kind: EpcsSigningKind) {
  const [row] = await db
    .select()
    .from(epcsSignings)
    .where(
      and(
        eq(epcsSignings.id, signingId),
        eq(epcsSignings.userId, userId),
        eq(epcsSignings.kind, kind),
        isNull(epcsSignings.signedAt),
      ),
    )
    .for('update');
  return row ?? null;
}

export async function completeSigning(
  db: Executor,
  id: string,
  signed: { signature: string; keyId: string; factor: string; signedAt: Date; prescriptionId?: string },
) {
  await db.update(epcsSignings).set(signed).where(eq(epcsSignings.id, id));
}
