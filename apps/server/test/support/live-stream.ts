/** A user's live-updates stream, read event by event (server tests of issue 20 and 45). */
import type { Tokens } from '@hcp/contract';
import { expect } from 'vitest';
import { authHeaders } from './auth.ts';

export interface Stream {
  events: { event: string; data: string; id?: string }[];
  close(): void;
}

/** Opens a user's stream (saying the last event id heard, if any) and collects its events. */
export async function openLiveStream(base: string, tokens: Tokens, lastEventId?: string): Promise<Stream> {
  const controller = new AbortController();
  const res = await fetch(`${base}/api/mdo/v1/users/${tokens.userID}/live-updates`, {
    headers: {
      ...authHeaders(tokens),
      accept: 'text/event-stream',
      ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
    },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  expect(res.headers.get('cache-control')).toBe('no-store');
  const stream: Stream = { events: [], close: () => controller.abort() };
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = (await reader?.read()) ?? { done: true, value: undefined };
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end = buffer.indexOf('\n\n');
        while (end !== -1) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          const id = /^id: (.*)$/m.exec(block)?.[1];
          if (event) stream.events.push({ event, data: data ?? '', ...(id ? { id } : {}) });
          end = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return stream;
}
