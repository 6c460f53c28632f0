/** The live hub's fan-out rules, without a database: who hears a change, and how a burst is folded. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CLOCK_SKEW_MS, createLiveHub } from '../src/features/live-updates/hub.ts';

afterEach(() => vi.useRealTimers());

function setUp() {
  let notify: (payload: string) => void = () => undefined;
  let gap: () => void = () => undefined;
  /** The hub's clock, moved by the test. */
  const clock = { now: 1_000_000 };
  const hub = createLiveHub({
    listen: async (onNotify, onGap) => {
      notify = onNotify;
      gap = onGap;
      return async () => undefined;
    },
    throttleMs: 250,
    now: () => clock.now,
  });
  const stream = (offices: string[]) => {
    const sent: string[] = [];
    let ended = false;
    return {
      sent,
      ended: () => ended,
      subscriber: {
        offices: new Set(offices),
        send(event: string, data: unknown, id: number) {
          sent.push(event);
          this.data.push(data);
          this.ids.push(id);
        },
        data: [] as unknown[],
        ids: [] as number[],
        end: () => (ended = true),
      },
    };
  };
  return { hub, stream, clock, notify: (office: string) => notify(office), gap: () => gap() };
}

describe('live hub', () => {
  it('sends the first change at once, folds a burst into one more event, and tells only those who see the practice', async () => {
    vi.useFakeTimers();
    const { hub, stream, notify } = setUp();
    const morgan = stream(['office-a']);
    const patel = stream(['office-b']);
    await hub.subscribe(morgan.subscriber);
    await hub.subscribe(patel.subscriber);
    notify('office-a');
    expect(morgan.sent).toEqual(['items']);
    for (let i = 0; i < 5; i += 1) notify('office-a');
    expect(morgan.sent).toEqual(['items']);
    vi.advanceTimersByTime(250);
    expect(morgan.sent).toEqual(['items', 'items']);
    vi.advanceTimersByTime(1000);
    expect(morgan.sent).toEqual(['items', 'items']);
    expect(patel.sent).toEqual([]);
    notify('office-a');
    expect(morgan.sent).toHaveLength(3);
  });

  it('stops sending to a stream that left, and ends every stream on close', async () => {
    const { hub, stream, notify } = setUp();
    const gone = stream(['office-a']);
    const open = stream(['office-a']);
    const leave = await hub.subscribe(gone.subscriber);
    await hub.subscribe(open.subscriber);
    leave();
    notify('office-a');
    expect(gone.sent).toEqual([]);
    expect(open.sent).toEqual(['items']);
    await hub.close();
    expect(open.ended()).toBe(true);
    expect(hub.size).toBe(0);
  });

  it('tells every open stream to refetch when its LISTEN connection is back after a loss', async () => {
    const { hub, stream, gap, clock } = setUp();
    const morgan = stream(['office-a']);
    const patel = stream(['office-b']);
    await hub.subscribe(morgan.subscriber);
    await hub.subscribe(patel.subscriber);
    clock.now += 5_000;
    gap();
    expect(morgan.sent).toEqual(['items']);
    expect(patel.sent).toEqual(['items']);
    expect(morgan.subscriber.data).toEqual([{ changed: true, resync: true }]);
    expect(morgan.subscriber.ids).toEqual([clock.now]);
    await hub.close();
  });

  it('says whether a reconnecting stream may have missed a change: its practices, the clocks’ skew, and a gap', async () => {
    const { hub, stream, notify, gap, clock } = setUp();
    const first = stream(['office-a']);
    // Not listening yet: it cannot vouch for anything.
    expect(hub.mayHaveMissed(new Set(['office-a']), clock.now)).toBe(true);
    await hub.subscribe(first.subscriber);
    const since = clock.now + 10_000;
    clock.now = since + 1_000;
    // Listening since well before the last id, nothing changed: nothing missed.
    expect(hub.mayHaveMissed(new Set(['office-a']), since)).toBe(false);
    notify('office-b');
    expect(hub.mayHaveMissed(new Set(['office-a']), since)).toBe(false);
    expect(hub.mayHaveMissed(new Set(['office-a', 'office-b']), since)).toBe(true);
    // A change up to CLOCK_SKEW_MS before the last id counts (the id may come from a clock that runs ahead).
    expect(hub.mayHaveMissed(new Set(['office-b']), clock.now + CLOCK_SKEW_MS - 1)).toBe(true);
    expect(hub.mayHaveMissed(new Set(['office-b']), clock.now + CLOCK_SKEW_MS)).toBe(false);
    // The LISTEN connection was lost after the last id: anything may have been missed.
    clock.now += 60_000;
    const later = clock.now;
    clock.now += 1_000;
    gap();
    expect(hub.mayHaveMissed(new Set(['office-a']), later)).toBe(true);
    expect(hub.mayHaveMissed(new Set(['office-a']), clock.now + CLOCK_SKEW_MS)).toBe(false);
    await hub.close();
  });
});
