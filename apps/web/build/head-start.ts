/**
 * The page's head start (decision 0066): `src/head-start.ts` built on its own into one small classic script, named as
 * `<script async>` in the landing screens' pages (the route table, build/route-preloads.ts), so their first GETs leave
 * while the entry is still downloading. Other pages do not name it: it would do nothing there but cost a request. On its
 * own because a second entry of the main build would share modules with the first, and the shared chunk would be one
 * more request before the head start could run. Its own copy of the few contract rules it uses is the price (3 KiB).
 *
 * The build fails when the script passes its budget or carries a package (React, zod, anything from node_modules):
 * it runs before the entry on every page, so it must stay a few small rules.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'rolldown';
import type { Plugin } from 'vite';

export interface HeadStartOptions {
  /** The script's source, from the app's root. */
  entry: string;
  /** Gzip bytes (level 9, as the build precompresses). */
  budget: number;
}

export function headStart({ entry, budget }: HeadStartOptions): Plugin & { api: { files: () => string[] } } {
  let root = '';
  let env: Record<string, unknown> = {};
  let fileName = '';
  return {
    name: 'hcp-head-start',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      // The same build-time settings as the entry's (lib/config.ts reads the API's address from them).
      env = config.env;
    },
    async buildStart() {
      const built = await build({
        input: path.resolve(root, entry),
        write: false,
        platform: 'browser',
        logLevel: 'warn',
        // Each setting by name, so the script carries the values it reads and not the whole set at every read.
        transform: {
          define: {
            ...Object.fromEntries(Object.entries(env).map(([key, value]) => [`import.meta.env.${key}`, JSON.stringify(value)])),
            // Any other setting is unset: read as undefined, not as a copy of the whole set at every read.
            'import.meta.env': '{}',
          },
        },
        output: { format: 'iife', minify: true },
      });
      const [chunk, ...rest] = built.output;
      if (chunk?.type !== 'chunk' || rest.length > 0) this.error('the head start must build into one script');
      const packages = chunk.moduleIds.filter((id) => id.includes(`${path.sep}node_modules${path.sep}`));
      if (packages.length > 0) this.error(`the head start must not carry packages: ${packages.join(', ')}`);
      const gzip = gzipSync(chunk.code, { level: 9 }).length;
      if (gzip > budget) {
        this.error(`the head start is ${(gzip / 1024).toFixed(1)} KiB gzip, past its ${(budget / 1024).toFixed(1)} KiB`);
      }
      const hash = createHash('sha256').update(chunk.code).digest('base64url').slice(0, 8);
      fileName = `assets/head-start-${hash}.js`;
      this.emitFile({ type: 'asset', fileName, source: chunk.code });
    },
    api: {
      /** The built script's name (`assets/head-start-<hash>.js`), once the build has started. */
      files: (): string[] => (fileName ? [fileName] : []),
    },
  };
}
