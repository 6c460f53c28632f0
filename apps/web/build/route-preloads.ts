import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';
import { ROUTE_PRELOADS_FILE, type RoutePreloads } from '../../../packages/contract/src/rules/route-preloads.ts';
import { budgetsPassed, describeSizes, excludedModulesFound, type FirstLoadBudgets, firstLoadSizes } from './budgets.ts';
import { entryFiles, staticallyReached } from './chunk-graph.ts';

/** What the plugin reads of an output chunk. */
export interface ChunkFacts {
  fileName: string;
  isEntry: boolean;
  moduleIds: readonly string[];
  imports: readonly string[];
  css: readonly string[];
}

/**
 * The files a route's first screen needs beyond the entry's own: for each root module (the shell, then the
 * screen), the chunk holding it and everything that chunk imports, breadth first. A root in no chunk (a renamed
 * file) is named instead, so the build fails rather than ship a stale list.
 */
export function preloadsFor(chunks: readonly ChunkFacts[], roots: readonly string[]): RoutePreloads | { missing: string } {
  const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const reach = (start: string[]) => staticallyReached(chunks, start);
  const first = new Set(entryFiles(chunks));
  const firstStyles = new Set([...first].flatMap((file) => byFile.get(file)?.css ?? []));
  const starts: string[] = [];
  for (const root of roots) {
    const holder = chunks.find((chunk) => chunk.moduleIds.includes(root));
    if (!holder) return { missing: root };
    starts.push(holder.fileName);
  }
  const scripts = reach(starts).filter((file) => !first.has(file));
  const styles = [...new Set(scripts.flatMap((file) => byFile.get(file)?.css ?? []))].filter((file) => !firstStyles.has(file));
  return { scripts: scripts.map((file) => `/${file}`), styles: styles.map((file) => `/${file}`) };
}

/**
 * The files each first screen needs, by route, for the server to name in the page it sends (decision 0047): the
 * browser then downloads the shell's and the screen's code beside the entry instead of after it has run, one
 * round trip and a download later on a phone. `routes` maps a path to the modules its screen starts from.
 * With `budgets`, the build fails when the first load or a landing screen's files pass theirs (issue 50, decision 0062).
 */
export function routePreloads(
  routes: Record<string, readonly string[]>,
  budgets?: FirstLoadBudgets,
  /** Scripts the page runs first (decision 0066's head start), by route: named in that page, counted in its budget. */
  starts?: { routes: readonly string[]; files: () => readonly string[] },
): Plugin {
  let facts: { chunks: ChunkFacts[]; table: Record<string, RoutePreloads> } | null = null;
  return {
    name: 'hcp-route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks: ChunkFacts[] = Object.values(bundle).flatMap((file) =>
        file.type === 'chunk'
          ? [
              {
                fileName: file.fileName,
                isEntry: file.isEntry,
                moduleIds: file.moduleIds,
                imports: file.imports,
                css: [...(file.viteMetadata?.importedCss ?? [])],
              },
            ]
          : [],
      );
      const table: Record<string, RoutePreloads> = {};
      for (const [route, roots] of Object.entries(routes)) {
        const found = preloadsFor(
          chunks,
          roots.map((root) => path.resolve(root)),
        );
        if ('missing' in found) this.error(`route-preloads: ${found.missing} (for ${route}) is in no chunk of the build`);
        const first = starts?.routes.includes(route) ? starts.files().map((file) => `/${file}`) : [];
        table[route] = first.length > 0 ? { ...found, starts: first } : found;
      }
      this.emitFile({ type: 'asset', fileName: ROUTE_PRELOADS_FILE, source: `${JSON.stringify(table, null, 2)}\n` });
      facts = { chunks, table };
    },
    // The sizes are read once the files are final: Vite adds its preload dependency map to the entry after every
    // plugin's generateBundle, and counted before that the entry read 117.7 KiB where 119.9 KiB went out (2026-12-05).
    writeBundle(_options, bundle) {
      if (!budgets || !facts) return;
      const { chunks, table } = facts;
      const sizeOf = (fileName: string) => {
        const file = bundle[fileName];
        if (!file) return 0;
        return gzipSync(file.type === 'chunk' ? file.code : file.source, { level: 9 }).length;
      };
      const sizes = firstLoadSizes(chunks, table, sizeOf);
      this.info(describeSizes(sizes));
      const passed = [
        ...budgetsPassed(sizes, budgets),
        ...(budgets.excluded ? excludedModulesFound(chunks, table, budgets.excluded) : []),
      ];
      if (passed.length > 0) this.error(`first-load budgets (decisions 0062, 0064): ${passed.join('; ')}`);
    },
  };
}
