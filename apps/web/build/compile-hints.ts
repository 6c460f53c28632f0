import type { Plugin } from 'vite';

/**
 * V8's explicit compile hint (Chrome 136+): a file that starts with this comment has all its functions compiled
 * while it downloads, on a background thread, instead of each one on the main thread the first time it is called.
 * Other engines read it as a comment.
 */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad';

/** What the plugin needs to know of an output chunk. */
export interface ChunkFacts {
  name: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
}

/**
 * Marks the chunks whose code runs as soon as it arrives (issue 21, decision 0045).
 *
 * Measured on Action Needed (this machine, no CPU slowdown): ~1,200 functions were compiled lazily on the main
 * thread while the first screen loaded, 90-125 ms of its thread time, inside the tasks Lighthouse counts as
 * blocking. With the hint on the first screen's chunks: 1-5 ms.
 *
 * Only chunks that run when they load are marked: eager compilation of a library that is mostly idle (the forms
 * library before a form is touched, the calendar before it opens) would be spent on functions never called.
 */
export function compileHints(runsOnLoad: (chunk: ChunkFacts) => boolean): Plugin {
  return {
    name: 'hcp-compile-hints',
    apply: 'build',
    generateBundle: {
      // After Vite's own rewrites (its preload list goes at the top of the entry): the hint must come first.
      order: 'post',
      handler(_options, bundle) {
        for (const file of Object.values(bundle)) {
          if (file.type !== 'chunk' || !runsOnLoad(file)) continue;
          const hinted = withCompileHint(file.code);
          if (hinted === file.code) continue;
          file.code = hinted;
          // One line more at the top: the source map's lines move down by one. The bundler has already written the
          // map out as its own file by now (`sourcemap: 'hidden'`), so that file is the one to change.
          const map = bundle[`${file.fileName}.map`];
          if (map?.type === 'asset') {
            const json = JSON.parse(String(map.source)) as { mappings: string };
            map.source = JSON.stringify({ ...json, mappings: `;${json.mappings}` });
          } else if (file.map) {
            file.map.mappings = `;${file.map.mappings}`;
          } else {
            this.error(`compile-hints: no source map found for ${file.fileName}`);
          }
        }
      },
    },
  };
}

export function withCompileHint(code: string): string {
  return code.startsWith(COMPILE_HINT) ? code : `${COMPILE_HINT}\n${code}`;
}
