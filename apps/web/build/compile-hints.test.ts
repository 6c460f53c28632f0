import { describe, expect, it } from 'vitest';
import { type ChunkFacts, COMPILE_HINT, compileHints, withCompileHint } from './compile-hints.ts';

type ChunkFile = { type: 'chunk'; fileName: string; code: string; map: { mappings: string } | null } & ChunkFacts;
type FakeFile = ChunkFile | { type: 'asset'; fileName: string; source: string };

const chunk = (fileName: string, name: string, facts: Partial<ChunkFacts> = {}): ChunkFile => ({
  type: 'chunk',
  fileName,
  name,
  code: 'export function a(){return 1}',
  map: null,
  isEntry: false,
  isDynamicEntry: false,
  facadeModuleId: null,
  ...facts,
});
const mapOf = (fileName: string): FakeFile => ({
  type: 'asset',
  fileName: `${fileName}.map`,
  source: JSON.stringify({ version: 3, mappings: 'AAAA,SAAS' }),
});

/** Runs the plugin's generateBundle over a bundle, as the bundler would. */
function run(runsOnLoad: (chunk: ChunkFacts) => boolean, bundle: Record<string, FakeFile>) {
  const plugin = compileHints(runsOnLoad);
  const hook = plugin.generateBundle as { handler: (this: unknown, options: unknown, bundle: unknown) => void };
  const context = {
    error: (message: string) => {
      throw new Error(message);
    },
  };
  hook.handler.call(context, {}, bundle);
  return bundle;
}

describe('compile hints (decision 0045)', () => {
  it('puts the hint on the first line of the chosen chunks only', () => {
    const bundle = run((c) => c.isEntry, {
      'index.js': chunk('index.js', 'entry', { isEntry: true }),
      'index.js.map': mapOf('index.js'),
      'forms.js': chunk('forms.js', 'forms'),
      'forms.js.map': mapOf('forms.js'),
    });
    const entry = bundle['index.js'] as { code: string };
    const forms = bundle['forms.js'] as { code: string };
    expect(entry.code.split('\n')[0]).toBe(COMPILE_HINT);
    expect(entry.code).toBe(`${COMPILE_HINT}\nexport function a(){return 1}`);
    expect(forms.code).toBe('export function a(){return 1}');
  });

  it('moves the source map down one line with the code, and leaves other maps alone', () => {
    const bundle = run((c) => c.name === 'entry', {
      'index.js': chunk('index.js', 'entry'),
      'index.js.map': mapOf('index.js'),
      'forms.js': chunk('forms.js', 'forms'),
      'forms.js.map': mapOf('forms.js'),
    });
    const mappings = (file: string) => (JSON.parse((bundle[file] as { source: string }).source) as { mappings: string }).mappings;
    expect(mappings('index.js.map')).toBe(';AAAA,SAAS');
    expect(mappings('forms.js.map')).toBe('AAAA,SAAS');
  });

  it('shifts a map the chunk still carries when none was written out', () => {
    const file = { ...chunk('index.js', 'entry'), map: { mappings: 'AAAA' } };
    const bundle = run(() => true, { 'index.js': file });
    expect((bundle['index.js'] as { map: { mappings: string } }).map.mappings).toBe(';AAAA');
  });

  it('fails the build rather than ship a map that points one line off', () => {
    expect(() => run(() => true, { 'index.js': chunk('index.js', 'entry') })).toThrow(/no source map found for index\.js/);
  });

  it('never adds the hint twice, so a map is never moved for nothing', () => {
    const once = withCompileHint('let a = 1;');
    expect(withCompileHint(once)).toBe(once);
    const bundle = run(() => true, {
      'index.js': { ...chunk('index.js', 'entry'), code: once },
      'index.js.map': mapOf('index.js'),
    });
    expect((bundle['index.js'] as { code: string }).code).toBe(once);
    expect(JSON.parse((bundle['index.js.map'] as { source: string }).source).mappings).toBe('AAAA,SAAS');
  });
});
