import { describe, expect, it } from 'vitest';
import { readEventStream } from './event-stream.ts';

/** A response whose body arrives in the given chunks. */
function streamed(chunks: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
  );
}

describe('readEventStream', () => {
  it('reads events split across chunks, skips keep-alive comments, joins multi-line data', async () => {
    const events: [string, string][] = [];
    await readEventStream(
      streamed([
        'event: ready\ndata: {"practices"',
        ':1}\n\n: keep-alive\n\nevent: items\r\ndata: a\r\ndata: b\r\n\r\n',
        'data: plain\n\n',
      ]),
      (event, data) => events.push([event, data]),
    );
    expect(events).toEqual([
      ['ready', '{"practices":1}'],
      ['items', 'a\nb'],
      ['message', 'plain'],
    ]);
  });

  it('hands on the last id the stream set, which stays in force for the events after it', async () => {
    const events: [string, string][] = [];
    await readEventStream(
      streamed(['id: 17\nevent: ready\ndata: {}\n\n', 'event: items\ndata: {}\n\n', 'id: 42\nevent: items\ndata: {}\n\n']),
      (event, _data, id) => events.push([event, id]),
    );
    expect(events).toEqual([
      ['ready', '17'],
      ['items', '17'],
      ['items', '42'],
    ]);
  });
});
