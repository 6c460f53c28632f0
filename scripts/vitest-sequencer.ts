/**
 * Vitest's file order (issue 44): the files known to be slow first, longest first, so two workers finish together
 * instead of one running a 50-second file alone at the end. Vitest orders by the durations of the last run on this
 * machine when it has them, and a fresh clone (CI) has none: there it fell back to file size and started
 * startup.test.ts (small, 26 s) last. test-durations.json holds the seconds of the files that take 3 s or more, from a
 * measured run (`npm test` prints the slowest); the rest follow, each project's as Vitest would order them.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import durations from './test-durations.json' with { type: 'json' };

const SECONDS: Record<string, number> = durations;

export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const seconds = (file: TestSpecification) => SECONDS[file.moduleId.slice(root.length + 1)] ?? 0;
    // A stable sort: files of equal weight (every unknown one) keep Vitest's order.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort(
        (a, b) =>
          a.file.project.config.sequence.groupOrder - b.file.project.config.sequence.groupOrder ||
          seconds(b.file) - seconds(a.file) ||
          a.index - b.index,
      )
      .map(({ file }) => file);
  }
}
