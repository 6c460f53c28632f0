/** The live hub's fan-out rules, without a database: who hears a change, and how a burst is folded. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createLiveHub } from '../src/features/live-updates/hub.ts';

afterEach(() => vi.useRealTimers());

function setUp() {
  let notify: (payload: string) => void = () => undefined;
  const hub = createLiveHub({
    listen: async (onNotify) => {
      notify = onNotify;
      return async () => undefined;
    },
    throttleMs: 250,
  });
  const stream = (offices: string[]) => {
    const sent: string[] = [];
    let ended = false;
    return {
      sent,
      ended: () => ended,
      subscriber: { offices: new Set(offices), send: (event: string) => sent.push(event), end: () => (ended = true) },
    };
  };
  return { hub, stream, notify: (office: string) => notify(office) };
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
});
