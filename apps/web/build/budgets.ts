/**
 * The first load's byte budgets, checked by the build (issue 50, decision 0062): what every first screen pays (the
 * entry script and its static imports) and what each landing screen's page names in all (the entry, its stylesheet
 * and the files of decision 0047's preload table). Sizes are gzip at level 9, as the build precompresses them; the
 * server sends brotli where it can, which is smaller still, so a budget met in gzip holds on the wire.
 */
import type { RoutePreloads } from '../../../packages/contract/src/rules/route-preloads.ts';
import { entryFiles } from './chunk-graph.ts';
import type { ChunkFacts } from './route-preloads.ts';

export interface FirstLoadBudgets {
  /** The entry script and every script it imports statically: what every page runs first. */
  entryScripts: number;
  /** Per landing route: every script and stylesheet its page downloads before the screen can draw, its head start too. */
  screens: Record<string, number>;
  /**
   * Modules no first load may carry, whatever the bytes: zod, whose schemas cost a phone 120-220 ms to build before a
   * screen can check its first answer (decision 0064). Checked on the entry and on every landing route's files.
   */
  excluded?: { name: string; modules: RegExp };
}

export interface FirstLoadSizes {
  entryScripts: number;
  /** The entry's own stylesheets. */
  entryStyles: number;
  screens: Record<string, number>;
}

/**
 * The sizes of the first load: the entry's static closure (scripts and their stylesheets), and for each route of the
 * preload table that plus the files it names. `sizeOf` answers for a file name of the bundle (`assets/x.js`).
 */
export function firstLoadSizes(
  chunks: readonly ChunkFacts[],
  table: Record<string, RoutePreloads>,
  sizeOf: (fileName: string) => number,
): FirstLoadSizes {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = new Set(entryFiles(chunks));
  const entryStyleFiles = new Set([...entry].flatMap((file) => byFile.get(file)?.css ?? []));
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + sizeOf(file), 0);
  const entryScripts = sum(entry);
  const entryStyles = sum(entryStyleFiles);
  const screens: Record<string, number> = {};
  for (const [route, files] of Object.entries(table)) {
    // The table's hrefs are `/assets/…`; the bundle's names have no leading slash.
    screens[route] =
      entryScripts + entryStyles + sum([...files.scripts, ...files.styles, ...(files.starts ?? [])].map((href) => href.slice(1)));
  }
  return { entryScripts, entryStyles, screens };
}

/**
 * One sentence per first load that carries an excluded module: the sign-in page (the entry's static closure) and each
 * route of the preload table, naming the file that brings it.
 */
export function excludedModulesFound(
  chunks: readonly ChunkFacts[],
  table: Record<string, RoutePreloads>,
  excluded: NonNullable<FirstLoadBudgets['excluded']>,
): string[] {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const carriers = (files: Iterable<string>) =>
    [...files].filter((file) => byFile.get(file)?.moduleIds.some((id) => excluded.modules.test(id)));
  const found: string[] = [];
  const inEntry = carriers(entryFiles(chunks));
  if (inEntry.length > 0) found.push(`the entry loads ${excluded.name} (${inEntry.join(', ')})`);
  for (const [route, files] of Object.entries(table)) {
    const inRoute = carriers(files.scripts.map((href) => href.slice(1))).filter((file) => !inEntry.includes(file));
    if (inRoute.length > 0) found.push(`${route} loads ${excluded.name} before it draws (${inRoute.join(', ')})`);
  }
  return found;
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** One sentence per budget passed; none when all hold. A route with a budget but no page in the table is one too. */
export function budgetsPassed(sizes: FirstLoadSizes, budgets: FirstLoadBudgets): string[] {
  const passed: string[] = [];
  if (sizes.entryScripts > budgets.entryScripts) {
    passed.push(`the entry's scripts are ${kib(sizes.entryScripts)} gzip, over their budget of ${kib(budgets.entryScripts)}`);
  }
  for (const [route, budget] of Object.entries(budgets.screens)) {
    const size = sizes.screens[route];
    if (size === undefined) passed.push(`${route} has a budget but is not a landing route of the preload table`);
    else if (size > budget)
      passed.push(`${route} downloads ${kib(size)} gzip before it draws, over its budget of ${kib(budget)}`);
  }
  return passed;
}

/** The figures as the build prints them: one line. */
export function describeSizes(sizes: FirstLoadSizes): string {
  const screens = Object.entries(sizes.screens).map(([route, size]) => `${route} ${kib(size)}`);
  return `first load (gzip): entry scripts ${kib(sizes.entryScripts)}, entry styles ${kib(sizes.entryStyles)}; screens: ${screens.join(', ')}`;
}
