/** The build's chunks as a graph of static imports, for the plugins that read what a first load downloads. */
import type { ChunkFacts } from './route-preloads.ts';

/** The files `start` names and every file they import statically, at any depth, breadth first. */
export function staticallyReached(chunks: readonly ChunkFacts[], start: readonly string[]): string[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const seen = new Set<string>();
  const queue = [...start];
  while (queue.length > 0) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    queue.push(...(byFile.get(file)?.imports ?? []));
  }
  return [...seen];
}

/** The entry's files: the entry chunks and every chunk they import statically (the sign-in page's whole script). */
export const entryFiles = (chunks: readonly ChunkFacts[]): string[] =>
  staticallyReached(
    chunks,
    chunks.filter((chunk) => chunk.isEntry).map((chunk) => chunk.fileName),
  );
