import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * One script per signed-in step instead of ~40 (issue 21, decision 0044).
 *
 * Left alone, the bundler gives every distinct set of importing screens its own shared chunk: the signed-in
 * shell and Action Needed came to ~40 files of 1-2 KiB. Each one is a `<link rel="modulepreload">` that Vite's
 * preload helper appends while the entry runs (a third of that first long task on a phone) and one more request.
 *
 * This plugin names, per step, the modules its root statically reaches and that nothing earlier holds: first
 * what the first load uses, then each step in order. `codeSplitting.groups` then put each step's modules in
 * one chunk. The first load is never changed: the build fails if the entry would import a step's chunk (the
 * first-load budget, e2e first-load.spec.ts, would catch the bytes; this names the cause).
 *
 * The contract is one barrel (`export * from` every module) and `sideEffects: false`, so the bundler keeps
 * only the contract modules whose exports are used. Walking the barrel's every edge would count all of the
 * contract (and zod) as "used by the first load"; the walk instead follows, from each module, only the
 * contract modules exporting a name it imports.
 *
 * Steps are chosen by what a user loads together: every signed-in page loads the shell; Action Needed is the
 * screen a prescriber lands on. Another screen that shares a module with a step loads that step's chunk,
 * which costs it bytes it may not use; the steps are kept to what almost every signed-in visit loads anyway.
 */
export function screenChunks({
  barrel,
  steps,
  signedOut,
}: {
  barrel: { specifier: string; file: string };
  steps: Step[];
  /**
   * The signed-out pages' modules: what they reach (loaded or lazily) and a step reaches too (a text field, the
   * dialog) goes to the `shared` chunk, never to a step's own, so the sign-in page never downloads signed-in code.
   */
  signedOut: { modules: RegExp; shared: string };
}) {
  const stepOf = new Map<string, string>();
  /** Every chunk this plugin makes, in priority order: each step's own, its shared one, the signed-out pages' one. */
  const chunkNames = [...steps.flatMap((step) => (step.shared ? [step.name, step.shared] : [step.name])), signedOut.shared];
  const plugin: Plugin = {
    name: 'hcp-screen-chunks',
    apply: 'build',
    buildEnd(error) {
      if (error) return;
      stepOf.clear();
      const info = (id: string) => this.getModuleInfo(id);
      const barrelId = path.resolve(barrel.file);
      const barrelModules = info(barrelId)?.importedIds ?? [];
      const providerOf = new Map<string, string>();
      for (const id of barrelModules) for (const name of info(id)?.exports ?? []) providerOf.set(name, id);

      /** What a module reaches: its own imports, and for the barrel only the modules providing what it names. */
      const edges = (id: string): string[] => {
        const module = info(id);
        if (!module) return [];
        const direct = module.importedIds.filter((next) => next !== barrelId);
        if (!module.importedIds.includes(barrelId)) return direct;
        const names = importedNames(module.code ?? '', barrel.specifier);
        if (names === 'all') return [...direct, ...barrelModules];
        return [...direct, ...names.map((name) => providerOf.get(name)).filter((next) => next !== undefined)];
      };
      const closure = (start: string[], taken: Set<string>, lazyToo = false) => {
        const seen = new Set<string>();
        const queue = [...start];
        while (queue.length > 0) {
          const id = queue.pop() as string;
          if (seen.has(id) || taken.has(id)) continue;
          seen.add(id);
          queue.push(...edges(id), ...(lazyToo ? (info(id)?.dynamicallyImportedIds ?? []) : []));
        }
        return seen;
      };
      const ids = [...this.getModuleIds()];
      const entries = ids.filter((id) => info(id)?.isEntry);
      const lazyRoots = [...new Set(ids.flatMap((id) => info(id)?.dynamicallyImportedIds ?? []))];
      const taken = closure(entries, new Set());
      const signedOutReach = closure(
        ids.filter((id) => signedOut.modules.test(id)),
        taken,
        true,
      );
      for (const step of steps) {
        const roots = step.roots.map((root) => path.resolve(root));
        for (const [index, root] of roots.entries()) {
          if (!info(root)) this.error(`screen-chunks: ${step.roots[index]} is not part of the build`);
        }
        const own = closure(roots, taken);
        // What other features' lazily loaded code reaches too (a table, a form field) goes to the shared chunk, so
        // another screen does not download this step's own code to get it. The step's own feature (its detail
        // page) shares most of it by design and does not count.
        const home = roots.map((root) => /^.*[\\/]features[\\/][^\\/]+[\\/]/.exec(root)?.[0]).find(Boolean);
        const elsewhere = lazyRoots.filter((root) => !roots.includes(root) && !(home && root.startsWith(home)));
        const others = step.shared ? closure(elsewhere, taken) : new Set();
        for (const id of own) {
          if (signedOutReach.has(id)) stepOf.set(id, signedOut.shared);
          else stepOf.set(id, step.shared && others.has(id) ? step.shared : step.name);
          taken.add(id);
        }
      }
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const ours = new Set(chunkNames);
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) {
        const queue = [entry.fileName];
        const seen = new Set<string>();
        while (queue.length > 0) {
          const file = queue.pop() as string;
          if (seen.has(file)) continue;
          seen.add(file);
          const chunk = byFile.get(file);
          if (!chunk) continue;
          if (file !== entry.fileName && ours.has(chunk.name)) {
            this.error(`screen-chunks: the first load (${entry.fileName}) would import the "${chunk.name}" chunk`);
          }
          queue.push(...chunk.imports);
        }
      }
    },
  };
  const groups = chunkNames.map((name, index) => ({
    name,
    test: (id: string) => stepOf.get(id) === name,
    priority: chunkNames.length - index,
    // The closures are complete: pulling dependencies in again could only drag first-load modules along.
    includeDependenciesRecursively: false,
  }));
  return { plugin, groups, stepNames: steps.map((step) => step.name) };
}

/**
 * A chunk: the modules its roots reach statically. A root may be one the first load imports dynamically.
 * `shared` names a second chunk for the modules other lazily loaded code reaches too.
 */
type Step = { name: string; roots: string[]; shared?: string };

/** The names a module imports from `specifier`, or 'all' when it takes the whole namespace or re-exports it. */
export function importedNames(code: string, specifier: string): string[] | 'all' {
  const quoted = `["']${specifier.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']`;
  if (new RegExp(`(?:import|export)\\s*\\*[^;]*?from\\s*${quoted}`).test(code)) return 'all';
  const names: string[] = [];
  for (const match of code.matchAll(new RegExp(`(?:import|export)\\s*\\{([^}]*)\\}\\s*from\\s*${quoted}`, 'g'))) {
    for (const part of (match[1] ?? '').split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)[0]
        ?.trim();
      if (name) names.push(name);
    }
  }
  return names;
}
