import { describe, expect, it } from 'vitest';
import { importedNames } from './screen-chunks.ts';

describe('importedNames (which contract modules a module really uses)', () => {
  it('reads named imports, aliases and type-only names', () => {
    const code = `import { ROUTES, isPrescriber as prescriber, type Role } from "@hcp/contract";\nimport x from "react";`;
    expect(importedNames(code, '@hcp/contract')).toEqual(['ROUTES', 'isPrescriber', 'Role']);
  });

  it('reads several statements, spread over lines, and named re-exports', () => {
    const code = `import {\n  a,\n  b,\n} from '@hcp/contract';\nexport { c } from '@hcp/contract';`;
    expect(importedNames(code, '@hcp/contract')).toEqual(['a', 'b', 'c']);
  });

  it('takes a namespace import or a star re-export as using everything', () => {
    expect(importedNames(`import * as contract from '@hcp/contract';`, '@hcp/contract')).toBe('all');
    expect(importedNames(`export * from '@hcp/contract';`, '@hcp/contract')).toBe('all');
  });

  it('ignores other specifiers, including longer ones that start the same', () => {
    const code = `import { a } from '@hcp/contract-extra';\nimport { b } from './contract';`;
    expect(importedNames(code, '@hcp/contract')).toEqual([]);
  });
});
