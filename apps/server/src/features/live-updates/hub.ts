/**
 * One hub per instance: a single LISTEN on the items channel, fanned out to the open streams whose user may see
 * the practice named. A burst of changes reaches each stream as one event (at most one per `throttleMs`).
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
  const pending = new Map<LiveSubscriber, NodeJS.Timeout>();
  let unlisten: Promise<() => Promise<void>> | null = null;

  function changed(officeId: string) {
    for (const subscriber of subscribers) {
      if (!subscriber.offices.has(officeId) || pending.has(subscriber)) continue;
      const timer = setTimeout(() => {
        pending.delete(subscriber);
        if (subscribers.has(subscriber)) subscriber.send('items', { changed: true });
      }, throttleMs);
      timer.unref();
      pending.set(subscriber, timer);
    }
  }

  return {
    async subscribe(subscriber: LiveSubscriber): Promise<() => void> {
      subscribers.add(subscriber);
      unlisten ??= deps.listen(changed);
      await unlisten;
      return () => {
        subscribers.delete(subscriber);
        clearTimeout(pending.get(subscriber));
        pending.delete(subscriber);
      };
    },
    get size() {
      return subscribers.size;
    },
    async close() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
      for (const subscriber of subscribers) subscriber.end();
      subscribers.clear();
      if (unlisten) await (await unlisten)();
    },
  };
}
export type LiveHub = ReturnType<typeof createLiveHub>;
