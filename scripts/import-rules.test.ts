import { describe, expect, it } from 'vitest';
import { checkFileImports, importsOf } from './import-rules.ts';

describe('importsOf', () => {
  it('finds static, re-export, side-effect and dynamic imports', () => {
    const source = `import a from './a.ts';\nimport type { B } from "../b.ts";\nexport * from './c.ts';\nimport './d.css';\nconst e = () => import('./e.tsx');`;
    expect(importsOf(source)).toEqual(['./a.ts', '../b.ts', './c.ts', './d.css', './e.tsx']);
  });
});

describe('checkFileImports', () => {
  const rules = (file: string, specifier: string) => checkFileImports(file, `import x from '${specifier}';`).map((v) => v.rule);

  it('keeps the contract free of our other code', () => {
    expect(rules('packages/contract/src/a.ts', '@hcp/server')).toHaveLength(1);
    expect(rules('packages/contract/src/a.ts', '../../../apps/web/src/x.ts')).toHaveLength(1);
    expect(rules('packages/contract/src/api/a.ts', '../rules/dates.ts')).toEqual([]);
    expect(rules('packages/contract/src/a.ts', 'zod')).toEqual([]);
  });

  it('never lets server and web import each other', () => {
    expect(rules('apps/server/src/app.ts', '@hcp/web')).toHaveLength(1);
    expect(rules('apps/web/src/app/app.tsx', '../../../server/src/app.ts')).toHaveLength(1);
    expect(rules('apps/web/src/app/app.tsx', '@hcp/contract')).toEqual([]);
  });

  it('never lets a feature import another feature', () => {
    expect(rules('apps/web/src/features/patients/routes/x.tsx', '../../rx-list/api/get.ts')).toHaveLength(1);
    expect(rules('apps/server/src/features/patients/service.ts', '../auth/service.ts')).toHaveLength(1);
    expect(rules('apps/web/src/features/patients/routes/x.tsx', '../api/get.ts')).toEqual([]);
    expect(rules('apps/web/src/features/patients/routes/x.tsx', '../../../components/page.tsx')).toEqual([]);
  });

  it('keeps shared web layers below features and the shell', () => {
    expect(rules('apps/web/src/components/table/table.tsx', '../../features/patients/x.ts')).toHaveLength(1);
    expect(rules('apps/web/src/lib/api-client.ts', '../app/app.tsx')).toHaveLength(1);
    expect(rules('apps/web/src/features/auth/routes/login.tsx', '../../../app/layouts.tsx')).toHaveLength(1);
    expect(rules('apps/web/src/app/routes.tsx', '../features/auth/routes/login.tsx')).toEqual([]);
  });
});
