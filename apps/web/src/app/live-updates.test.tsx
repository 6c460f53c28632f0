/**
 * The open portal's live stream across a reconnect (issue 45): the client sends the id of the last event it heard,
 * and refetches the lists when the server says it may have missed something. fetch is stubbed at the network edge;
 * the order is decided by the stub (the first stream ends, the second stays open), not by time.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { actionNeededQueryKey } from '../features/action-needed/api/get-action-needed.ts';
import { newCommentsQueryKey } from '../features/new-comments/api/get-new-comments.ts';
import { asOwnChange } from '../lib/own-changes.ts';
import { LiveUpdates } from './live-updates.tsx';

/** A response whose body is these events, then ends (or stays open until aborted). */
function eventStream(text: string, stayOpen: boolean, signal?: AbortSignal | null): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text));
      if (!stayOpen) controller.close();
      signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')));
    },
  });
  return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
}

afterEach(() => vi.unstubAllGlobals());

describe('LiveUpdates', () => {
  it('reconnects with the id it last heard and refetches when the server says a change may have been missed', async () => {
    const sent: (string | null)[] = [];
    const fetchMock = vi.fn(async (_url: string, init?: RequestInit) => {
      sent.push(new Headers(init?.headers).get('last-event-id'));
      return sent.length === 1
        ? eventStream('id: 100\nevent: ready\ndata: {"practices":1}\n\n', false)
        : eventStream(
            'id: 205\nevent: ready\ndata: {"practices":1}\n\nid: 206\nevent: items\ndata: {"changed":true,"resync":true}\n\n',
            true,
            init?.signal,
          );
    });
    vi.stubGlobal('fetch', fetchMock);
    const client = new QueryClient();
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const { unmount } = render(
      <QueryClientProvider client={client}>
        <LiveUpdates userId="u1" actionNeededCount={3} />
      </QueryClientProvider>,
    );
    // The first stream ends after `ready`; the second (after the client's pause) says what it heard.
    await waitFor(() => expect(sent).toEqual([null, '100']));
    await waitFor(() => expect(invalidate).toHaveBeenCalledTimes(2));
    expect(invalidate.mock.calls.map(([filters]) => filters?.queryKey)).toEqual([
      actionNeededQueryKey('u1'),
      newCommentsQueryKey('u1'),
    ]);
    unmount();
  });

  it('announces new items the stream brings, but not the user’s own undo coming back (issue 47)', async () => {
    for (const own of [false, true]) {
      // One stream: ready, then one change; it stays open.
      vi.stubGlobal(
        'fetch',
        vi.fn(async (_url: string, init?: RequestInit) =>
          eventStream('id: 1\nevent: ready\ndata: {}\n\nid: 2\nevent: items\ndata: {"changed":true}\n\n', true, init?.signal),
        ),
      );
      const client = new QueryClient();
      const invalidated = new Promise<void>((resolve) => {
        vi.spyOn(client, 'invalidateQueries').mockImplementation(async () => resolve());
      });
      const finishers: (() => void)[] = [];
      const undo = own ? asOwnChange(() => new Promise<void>((resolve) => finishers.push(resolve))) : null;
      const view = (count: number) => (
        <QueryClientProvider client={client}>
          <LiveUpdates userId="u1" actionNeededCount={count} />
        </QueryClientProvider>
      );
      const { rerender, unmount, container } = render(view(3));
      await invalidated;
      // The refetch after the change answers one more item.
      rerender(view(4));
      if (own) {
        expect(container.textContent).toBe('');
        for (const finish of finishers) finish();
        await undo;
      } else {
        await waitFor(() => expect(container.textContent).toBe('1 new item'));
      }
      unmount();
      vi.unstubAllGlobals();
    }
  });
});
