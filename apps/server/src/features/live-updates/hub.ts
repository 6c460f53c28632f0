/**
 * One hub per instance: a single LISTEN on the items channel, fanned out to the open streams whose user may see
 * the practice named. The first change reaches a stream at once; a burst after it, as one more event once
 * `throttleMs` has passed.
 *
 * Gaps (issue 45, decision 0053): a NOTIFY sent while the LISTEN connection is down is lost, and so is one sent
 * while a browser's stream is reconnecting. Every event carries an id (this instance's clock, in ms). When the
 * LISTEN connection comes back, every open stream is told `items` with `resync: true`; when a stream reconnects
 * with the id it last heard, it is told the same at once if one of its practices changed since then, or if this
 * hub was not listening all that time, so an open portal refetches instead of staying silently stale.
 */
export interface LiveSubscriber {
  offices: ReadonlySet<string>;
  send(event: string, data: unknown, id: number): void;
  /** Ends the stream (the instance is shutting down). */
  end(): void;
}

/**
 * How far apart two instances' clocks may be: a reconnecting stream's last id came from another instance's clock,
 * so changes this much older than it count as possibly missed (a spare refetch costs one list read).
 */
export const CLOCK_SKEW_MS = 2_000;

export function createLiveHub(deps: {
  /** Calls `onNotify` per NOTIFY and `onGap` each time the LISTEN connection is back after a loss. */
  listen: (onNotify: (payload: string) => void, onGap: () => void) => Promise<() => Promise<void>>;
  throttleMs?: number;
  now?: () => number;
}) {
  const throttleMs = deps.throttleMs ?? 250;
  const now = deps.now ?? Date.now;
  const subscribers = new Set<LiveSubscriber>();
  /** Streams inside their quiet window, and whether something changed meanwhile (sent when the window ends). */
  const quiet = new Map<LiveSubscriber, { timer?: NodeJS.Timeout; again: boolean }>();
  /** When each practice last changed, as heard here (one number per practice that changed). */
  const lastChange = new Map<string, number>();
  /** Since when this hub has heard every NOTIFY (null: not listening). */
  let listeningSince: number | null = null;
  let unlisten: Promise<() => Promise<void>> | null = null;

  function hush(subscriber: LiveSubscriber) {
    const entry: { timer?: NodeJS.Timeout; again: boolean } = { again: false };
    const tick = () => {
      if (entry.again && subscribers.has(subscriber)) {
        entry.again = false;
        subscriber.send('items', { changed: true }, now());
        entry.timer = setTimeout(tick, throttleMs);
        entry.timer.unref();
      } else quiet.delete(subscriber);
    };
    entry.timer = setTimeout(tick, throttleMs);
    entry.timer.unref();
    quiet.set(subscriber, entry);
  }

  /** The first change goes at once; a burst after it becomes one more event when the quiet window ends. */
  function tell(subscriber: LiveSubscriber, data: { changed: true; resync?: true }) {
    const entry = quiet.get(subscriber);
    if (entry) {
      entry.again = true;
      return;
    }
    subscriber.send('items', data, now());
    hush(subscriber);
  }

  function changed(officeId: string) {
    lastChange.set(officeId, now());
    for (const subscriber of subscribers) if (subscriber.offices.has(officeId)) tell(subscriber, { changed: true });
  }

  /** The LISTEN connection was lost and is back: anything may have changed meanwhile. */
  function gap() {
    listeningSince = now();
    for (const subscriber of subscribers) tell(subscriber, { changed: true, resync: true });
  }

  return {
    async subscribe(subscriber: LiveSubscriber): Promise<() => void> {
      subscribers.add(subscriber);
      unlisten ??= deps.listen(changed, gap).then((stop) => {
        listeningSince ??= now();
        return stop;
      });
      await unlisten;
      return () => {
        subscribers.delete(subscriber);
        clearTimeout(quiet.get(subscriber)?.timer);
        quiet.delete(subscriber);
      };
    },
    /**
     * Whether a stream that last heard event `lastId` may have missed a change of these practices: one changed
     * since (give or take the clocks' skew), or this hub was not listening all that time.
     */
    mayHaveMissed(offices: ReadonlySet<string>, lastId: number): boolean {
      const since = lastId - CLOCK_SKEW_MS;
      if (listeningSince === null || listeningSince > since) return true;
      for (const office of offices) if ((lastChange.get(office) ?? 0) > since) return true;
      return false;
    },
    now,
    get size() {
      return subscribers.size;
    },
    async close() {
      for (const entry of quiet.values()) clearTimeout(entry.timer);
      quiet.clear();
      for (const subscriber of subscribers) subscriber.end();
      subscribers.clear();
      if (unlisten) await (await unlisten)();
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
