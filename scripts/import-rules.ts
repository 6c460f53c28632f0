/**
 * The import direction of DESIGN §1, as code: contract imports nothing of ours; server and web import
 * contract but never each other; inside an app a feature never imports another feature; in the web app
 * the shared layers (components, lib, styles) never import features or the app shell.
 */
import path from 'node:path';

export interface Violation {
  file: string;
  specifier: string;
  rule: string;
}

const IMPORT_PATTERN =
  /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[\s;(])import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

export function importsOf(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(IMPORT_PATTERN)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier) found.push(specifier);
  }
  return found;
}

type Area = 'contract' | 'server' | 'web' | 'other';

function areaOf(relative: string): Area {
  if (relative.startsWith('packages/contract/')) return 'contract';
  if (relative.startsWith('apps/server/')) return 'server';
  if (relative.startsWith('apps/web/')) return 'web';
  return 'other';
}

/** 'apps/web/src/features/patients/x.ts' -> 'patients'. */
function featureOf(relative: string): string | null {
  const match = /^apps\/(?:web|server)\/src\/features\/([^/]+)\//.exec(relative);
  return match?.[1] ?? null;
}

/** `file` and the result are repository-relative with forward slashes. */
export function checkFileImports(file: string, source: string): Violation[] {
  const violations: Violation[] = [];
  const from = areaOf(file);
  const fromFeature = featureOf(file);
  for (const specifier of importsOf(source)) {
    const target = specifier.startsWith('.') ? path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)) : null;
    const targetArea: Area = target
      ? areaOf(target)
      : specifier === '@hcp/contract' || specifier.startsWith('@hcp/contract/')
        ? 'contract'
        : specifier === '@hcp/server' || specifier.startsWith('@hcp/server/')
          ? 'server'
          : specifier === '@hcp/web' || specifier.startsWith('@hcp/web/')
            ? 'web'
            : 'other';
    const add = (rule: string) => violations.push({ file, specifier, rule });

    if (from === 'contract' && (targetArea === 'server' || targetArea === 'web' || (target && targetArea !== 'contract'))) {
      add('packages/contract imports nothing of ours');
    }
    if (from === 'server' && targetArea === 'web') add('apps/server never imports apps/web');
    if (from === 'web' && targetArea === 'server') add('apps/web never imports apps/server');
    if (target) {
      const toFeature = featureOf(target);
      if (fromFeature && toFeature && fromFeature !== toFeature) {
        add(
          `features/${fromFeature} never imports features/${toFeature}; move shared code down to components/, lib/ or contract`,
        );
      }
      if (from === 'web' && /^apps\/web\/src\/(components|lib|styles)\//.test(file)) {
        if (/^apps\/web\/src\/(features|app)\//.test(target)) add('web components/lib never import features or the app shell');
      }
      if (fromFeature && /^apps\/web\/src\/app\//.test(target)) add('a web feature never imports the app shell');
    }
  }
  return violations;
}
