/**
 * `npm run check:supply-chain` (part of `npm test`): the lockfile pins every package by hash, install scripts
 * come only from the allow-list, and `npm audit --omit=dev` has no high or critical advisory without a recorded
 * exception. When the registry's audit service cannot be reached (some mirrors answer 405), that one check is
 * reported as not done — never as passed.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';
import {
  type AuditVulnerability,
  auditProblems,
  engineProblems,
  type LockPackage,
  lockfileProblems,
  type Policy,
} from './supply-chain.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const policy = JSON.parse(readFileSync(path.join(root, 'scripts/supply-chain-policy.json'), 'utf8')) as Policy;
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockPackage> };

const problems = lockfileProblems(lock.packages, policy);
// The oldest Node our own engines field accepts is the one every installed package must run on.
const rootEngines = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines;
const oldestNode = semver.minVersion(rootEngines.node)?.version ?? '20.19.0';
problems.push(...engineProblems(lock.packages, oldestNode, (v, r) => semver.satisfies(v, r)));
console.log(`supply chain: every locked package's engines field checked against Node ${oldestNode}`);
const installed = Object.keys(lock.packages).filter((p) => p.startsWith('node_modules/')).length;
console.log(`supply chain: ${installed} locked packages checked for integrity and install scripts`);

let audit: { vulnerabilities?: Record<string, AuditVulnerability> } | null = null;
try {
  const out = execFileSync('npm', ['audit', '--omit=dev', '--json'], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  audit = JSON.parse(out);
} catch (error) {
  // npm audit exits 1 when it finds advisories; its JSON is still on stdout.
  const stdout = (error as { stdout?: string }).stdout ?? '';
  try {
    const parsed = JSON.parse(stdout) as { vulnerabilities?: Record<string, AuditVulnerability>; error?: unknown };
    audit = parsed.error ? null : parsed;
  } catch {
    audit = null;
  }
}
if (audit?.vulnerabilities) {
  const found = auditProblems(audit.vulnerabilities, policy, new Date().toISOString().slice(0, 10));
  problems.push(...found);
  console.log(
    `supply chain: npm audit --omit=dev: ${Object.keys(audit.vulnerabilities).length} advisories, ${found.length} not accepted`,
  );
} else {
  console.log('supply chain: npm audit --omit=dev: NOT CHECKED (the registry audit service did not answer)');
}
for (const problem of problems) console.error(`supply chain: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
