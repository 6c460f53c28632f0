/**
 * The user's own changes in flight (issue 47): the live-updates stream tells of every change to the practice's
 * items, the user's own among them. While one of theirs is under way (an undo brings items back), what the stream
 * brings is theirs, not news: "1 new item" after an Undo said something false.
 */
let inFlight = 0;

/** Runs `work` as the user's own change: the live announcer says nothing of what arrives meanwhile. */
export async function asOwnChange<T>(work: () => Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await work();
  } finally {
    inFlight -= 1;
  }
}

export const ownChangeInFlight = (): boolean => inFlight > 0;
