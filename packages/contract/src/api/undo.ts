/**
 * Undo (issue 22, our addition; decision 0030): a prescriber's decision is held for a few seconds before the
 * pharmacy hears of it, and may be taken back meanwhile by the user who made it.
 */
import { z } from 'zod';

/** Given with a decision that can be undone: the call's request id, and until when (an ISO 8601 instant). */
export const undoOfferSchema = z.object({ requestId: z.string(), until: z.string() });
export type UndoOffer = z.infer<typeof undoOfferSchema>;

/** POST /decisions/{requestId}/undo: each item of the decision, undone or left as decided with the reason. */
export const undoResultSchema = z.object({
  undone: z.number().int(),
  refused: z.number().int(),
  results: z.array(
    z.object({
      id: z.string(),
      status: z.enum(['undone', 'refused']),
      reason: z.string().optional(),
    }),
  ),
});
export type UndoResult = z.infer<typeof undoResultSchema>;
