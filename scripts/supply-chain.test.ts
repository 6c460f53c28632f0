import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { auditProblems, engineProblems, lockfileProblems, type Policy } from './supply-chain.ts';

const policy: Policy = {
  installScripts: { esbuild: 'not run' },
  auditExceptions: { 'old-lib': { reason: 'dev only path', until: '2026-12-31' } },
};

describe('supply-chain rules', () => {
  it('needs an integrity hash for every package and an allow-listed name for an install script', () => {
    expect(
      lockfileProblems(
        {
          '': {},
          'packages/contract': {},
          'node_modules/esbuild': { version: '1', integrity: 'sha512-x', hasInstallScript: true },
          'node_modules/a/node_modules/evil': { version: '2', integrity: 'sha512-y', hasInstallScript: true },
          'node_modules/loose': { version: '3' },
          'node_modules/linked': { link: true },
        },
        policy,
      ),
    ).toEqual([
      'a/evil@2: declares an install script and is not on the allow-list',
      'loose@3: no sha512 integrity in the lockfile',
    ]);
  });

  it('fails high and critical advisories unless an unexpired exception names them', () => {
    const vulns = {
      a: { name: 'a', severity: 'critical' as const, via: [] },
      b: { name: 'b', severity: 'moderate' as const, via: [] },
      'old-lib': { name: 'old-lib', severity: 'high' as const, via: [] },
    };
    expect(auditProblems(vulns, policy, '2026-11-24')).toEqual(['a: critical advisory without a recorded exception']);
    expect(auditProblems(vulns, policy, '2027-01-01')).toContain('old-lib: the exception expired on 2026-12-31');
  });

  it('names every package whose engines field refuses the oldest promised Node', () => {
    const satisfies = (v: string, r: string) => semver.satisfies(v, r);
    expect(
      engineProblems(
        {
          'node_modules/content-disposition': { version: '3.0.0', engines: { node: '>=22' } },
          'node_modules/old-ok': { version: '1.0.0', engines: { node: '>=18' } },
          'node_modules/glob': { version: '13.0.7', engines: { node: '18 || 20 || >=22' } },
          'node_modules/none': { version: '1.0.0' },
        },
        '20.19.0',
        satisfies,
      ),
    ).toEqual(['content-disposition@3.0.0: needs Node >=22, the README promises Node 20.19.0']);
  });
});
