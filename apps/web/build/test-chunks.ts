/** A chunk of a build as the build plugins read it, for their tests: only what a test names differs. */
import type { ChunkFacts } from './route-preloads.ts';

export const chunk = (fileName: string, facts: Partial<ChunkFacts> = {}): ChunkFacts => ({
  fileName,
  isEntry: false,
  moduleIds: [],
  imports: [],
  css: [],
  ...facts,
});
