/**
 * One hub per instance: a single LISTEN on the items channel, fanned out to the open streams whose user may see
 * the practice named. The first change reaches a stream at once; a burst after it, as one more event once
 * `throttleMs` has passed.
 */
export interface LiveSubscriber {
  offices: ReadonlySet<string>;
  send(event: string, data: unknown): void;
  /** Ends the stream (the instance is shutting down). */
  end(): void;
}

export function createLiveHub(deps: {
  listen: (onNotify: (payload: string) => void) => Promise<() => Promise<void>>;
  throttleMs?: number;
}) {
  const throttleMs = deps.throttleMs ?? 250;
  const subscribers = new Set<LiveSubscriber>();
  /** Streams inside their quiet window, and whether something changed meanwhile (sent when the window ends). */
  const quiet = new Map<LiveSubscriber, { timer?: NodeJS.Timeout; again: boolean }>();
  let unlisten: Promise<() => Promise<void>> | null = null;

  function hush(subscriber: LiveSubscriber) {
    const entry: { timer?: NodeJS.Timeout; again: boolean } = { again: false };
    const tick = () => {
      if (entry.again && subscribers.has(subscriber)) {
        entry.again = false;
        subscriber.send('items', { changed: true });
        entry.timer = setTimeout(tick, throttleMs);
        entry.timer.unref();
      } else quiet.delete(subscriber);
    };
    entry.timer = setTimeout(tick, throttleMs);
    entry.timer.unref();
    quiet.set(subscriber, entry);
  }

  /** The first change goes at once; a burst after it becomes one more event when the quiet window ends. */
  function changed(officeId: string) {
    for (const subscriber of subscribers) {
      if (!subscriber.offices.has(officeId)) continue;
      const entry = quiet.get(subscriber);
      if (entry) {
        entry.again = true;
        continue;
      }
      subscriber.send('items', { changed: true });
      hush(subscriber);
    }
  }

  return {
    async subscribe(subscriber: LiveSubscriber): Promise<() => void> {
      subscribers.add(subscriber);
      unlisten ??= deps.listen(changed);
      await unlisten;
      return () => {
        subscribers.delete(subscriber);
        clearTimeout(quiet.get(subscriber)?.timer);
        quiet.delete(subscriber);
      };
    },
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
