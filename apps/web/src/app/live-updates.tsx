import { apiPaths } from '@hcp/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { actionNeededQueryKey } from '../features/action-needed/api/get-action-needed.ts';
import { newCommentsQueryKey } from '../features/new-comments/api/get-new-comments.ts';
import { api, SessionExpiredError } from '../lib/api-client.ts';
import { readEventStream } from '../lib/event-stream.ts';
import { ownChangeInFlight } from '../lib/own-changes.ts';

const MAX_BACKOFF_MS = 30_000;

/**
 * Keeps the open portal current (issue 20): the server's event stream says when the user's practices' items
 * changed, and the lists refetch at once. When the stream drops, it reconnects with growing pauses, sending the id
 * of the last event it heard (`Last-Event-ID`), and the server says `items` at once if anything may have changed in
 * the gap (issue 45), so the screen is never silently stale; refetching on focus (spec §9) stays as well. Answers how
 * many live changes have arrived.
 */
function useLiveUpdates(userId: string): number {
  const queryClient = useQueryClient();
  const [changes, setChanges] = useState(0);
  useEffect(() => {
    const controller = new AbortController();
    let pause = 1000;
    let heard = '';
    (async () => {
      while (!controller.signal.aborted) {
        try {
          const response = (await api.request(apiPaths.liveUpdates(userId), {
            as: 'stream',
            headers: { accept: 'text/event-stream', ...(heard ? { 'last-event-id': heard } : {}) },
            signal: controller.signal,
          })) as Response;
          await readEventStream(response, (event, _data, lastEventId) => {
            if (lastEventId) heard = lastEventId;
            if (event === 'ready') pause = 1000;
            if (event !== 'items') return;
            void queryClient.invalidateQueries({ queryKey: actionNeededQueryKey(userId) });
            void queryClient.invalidateQueries({ queryKey: newCommentsQueryKey(userId) });
            setChanges((n) => n + 1);
          });
        } catch (error) {
          // Signed out, or leaving: no more stream.
          if (controller.signal.aborted || error instanceof SessionExpiredError) return;
        }
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(MAX_BACKOFF_MS, pause * 2);
      }
    })();
    return () => controller.abort();
  }, [userId, queryClient]);
  return changes;
}

/**
 * The stream, and one polite announcement when it brings new items ("2 new items"), not one per change: the
 * count is compared with the one before the change arrived.
 */
export function LiveUpdates({ userId, actionNeededCount }: { userId: string; actionNeededCount: number | undefined }) {
  const changes = useLiveUpdates(userId);
  const baseline = useRef<{ changes: number; count: number | undefined }>({ changes: 0, count: actionNeededCount });
  const [message, setMessage] = useState('');
  useEffect(() => {
    const before = baseline.current;
    if (changes === before.changes || ownChangeInFlight()) {
      // Not a live change (first load, the user's own action, or the stream telling of it): the new count is the baseline.
      baseline.current = { changes, count: actionNeededCount };
      return;
    }
    if (actionNeededCount === undefined || actionNeededCount === before.count) return;
    const added = actionNeededCount - (before.count ?? actionNeededCount);
    if (added > 0) setMessage(added === 1 ? '1 new item' : `${added} new items`);
    baseline.current = { changes, count: actionNeededCount };
  }, [changes, actionNeededCount]);
  return (
    <p role="status" className="visually-hidden">
      {message}
    </p>
  );
}
