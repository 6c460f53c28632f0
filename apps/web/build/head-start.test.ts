import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { headStart } from './head-start.ts';

// The app's root: this file's folder's parent (vitest gives a module its own path, whatever the environment).
const root = path.resolve(import.meta.dirname, '..');
// A source that imports a package, beside the app's so that node_modules resolves as it does for the app.
const fixtures = mkdtempSync(path.join(root, 'build', '.head-start-test-'));
afterAll(() => rmSync(fixtures, { recursive: true, force: true }));

/** Runs the plugin's hooks as the build does; the emitted file and the build's errors are kept. */
async function run(entry: string, budget: number, env: Record<string, unknown> = {}) {
  const emitted: { fileName: string; source: string }[] = [];
  const errors: string[] = [];
  const context = {
    emitFile: (file: { fileName: string; source: string }) => {
      emitted.push(file);
      return file.fileName;
    },
    error: (message: string) => {
      errors.push(message);
      throw new Error(message);
    },
  };
  const plugin = headStart({ entry, budget });
  (plugin.configResolved as unknown as (config: object) => void)({ root, base: '/', env: { MODE: 'production', ...env } });
  try {
    await (plugin.buildStart as unknown as (this: typeof context) => Promise<void>).call(context);
  } catch {
    // Kept in `errors`.
  }
  return { emitted, errors, files: plugin.api.files() };
}

describe('the head start script (decision 0066)', () => {
  it('is one small hashed script without packages, whose name the route table is given', async () => {
    const { emitted, errors, files } = await run('src/head-start.ts', 2.5 * 1024);
    expect(errors).toEqual([]);
    expect(emitted).toHaveLength(1);
    const [file] = emitted;
    expect(file?.fileName).toMatch(/^assets\/head-start-[\w-]{8}\.js$/);
    const code = file?.source ?? '';
    // A classic script that runs by itself: no module syntax, no React, no zod.
    expect(code).not.toMatch(/\bimport\b|\bexport\b/);
    expect(code).not.toMatch(/react|\$ZodType/i);
    expect(gzipSync(code, { level: 9 }).length).toBeLessThanOrEqual(2.5 * 1024);
    // It reads the session where the client keeps it, and asks the API for the shell's answers.
    expect(code).toContain('hcp.accessToken');
    expect(code).toContain('mdo-user-details');
    expect(files).toEqual([file?.fileName]);
  });

  it("asks the API at the address the build is for, as the entry's client does", async () => {
    const { emitted } = await run('src/head-start.ts', 2.5 * 1024, { VITE_API_BASE_URL: 'https://api.example.test' });
    expect(emitted[0]?.source).toContain('https://api.example.test');
  });

  it('fails the build past its budget, or when it carries a package', async () => {
    const over = await run('src/head-start.ts', 512);
    expect(over.errors).toEqual([expect.stringMatching(/^the head start is .* KiB gzip, past its 0\.5 KiB$/)]);
    expect(over.emitted).toEqual([]);
    expect(over.files).toEqual([]);

    const withPackage = path.join(fixtures, 'with-package.ts');
    writeFileSync(withPackage, "import { z } from 'zod';\n(globalThis as { s?: unknown }).s = z.string();\n");
    const carrying = await run(path.relative(root, withPackage), 1024 * 1024);
    expect(carrying.errors).toEqual([expect.stringMatching(/^the head start must not carry packages: .*node_modules.*zod/)]);
  });
});
