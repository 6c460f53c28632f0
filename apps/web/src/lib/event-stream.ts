/**
 * Reads a server-sent events body (text/event-stream) and calls `onEvent` per event, until it ends or aborts. The
 * third argument is the last event id the stream has set (an `id:` field stays in force for the events after it, as
 * in EventSource), for `Last-Event-ID` on reconnecting.
 */
export async function readEventStream(
  response: Response,
  onEvent: (event: string, data: string, lastEventId: string) => void,
): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  const decoder = new TextDecoder();
  let buffer = '';
  let lastEventId = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true }).replaceAll('\r\n', '\n');
    let end = buffer.indexOf('\n\n');
    while (end !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let event = 'message';
      const data: string[] = [];
      for (const line of block.split('\n')) {
        if (line.startsWith('event:')) event = line.slice(6).trim();
        else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
        // An id with a NUL is ignored, as EventSource does.
        else if (line.startsWith('id:') && !line.includes('\0')) lastEventId = line.slice(3).trim();
      }
      // Comment-only blocks (": keep-alive") carry no event.
      if (block.split('\n').some((line) => line.startsWith('event:') || line.startsWith('data:')))
        onEvent(event, data.join('\n'), lastEventId);
      end = buffer.indexOf('\n\n');
    }
  }
}
