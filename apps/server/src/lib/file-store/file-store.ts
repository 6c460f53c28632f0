/** What every file store does (its own file: index.ts picks a store, and the stores import only this). */
import type { Readable } from 'node:stream';

export interface FileStore {
  readonly kind: 'database' | 's3';
  /**
   * Streams `content` in under a new `key` and answers its size. When `content` fails part way (the client went
   * away, a check in the stream refused it), the error is passed on and nothing is left under the key.
   */
  put(key: string, content: AsyncIterable<Uint8Array>): Promise<{ sizeBytes: number }>;
  /** The content, streamed; null when nothing complete is stored under the key. */
  get(key: string): Promise<Readable | null>;
  /** Removes the key's content; removing what is not there is fine. */
  remove(key: string): Promise<void>;
  /** Every key stored before `before` (complete or not), a page at a time: the orphan sweep's input. */
  keysBefore(before: Date): AsyncIterable<string[]>;
}
