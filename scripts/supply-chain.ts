/**
 * Supply-chain rules (decision 0021), pure so they are tested: every installed package pinned by an integrity
 * hash; install scripts only from the allow-list; `npm audit` high/critical findings only with a recorded,
 * unexpired exception.
 */
export interface LockPackage {
  version?: string;
  integrity?: string;
  link?: boolean;
  hasInstallScript?: boolean;
  dev?: boolean;
  engines?: { node?: string };
}
export interface Policy {
  installScripts: Record<string, string>;
  auditExceptions: Record<string, { reason: string; until: string }>;
}
export interface AuditVulnerability {
  name: string;
  severity: 'info' | 'low' | 'moderate' | 'high' | 'critical';
  via: unknown[];
}

/** node_modules/a/node_modules/b -> a/b, the name the allow-list uses. */
export const packageName = (lockPath: string) => lockPath.replace(/^node_modules\//, '').replaceAll('/node_modules/', '/');

export function lockfileProblems(packages: Record<string, LockPackage>, policy: Policy): string[] {
  const problems: string[] = [];
  for (const [path, pkg] of Object.entries(packages)) {
    if (!path.startsWith('node_modules/') || pkg.link) continue;
    const name = packageName(path);
    if (!pkg.integrity?.startsWith('sha512-')) problems.push(`${name}@${pkg.version}: no sha512 integrity in the lockfile`);
    if (pkg.hasInstallScript && !(name in policy.installScripts)) {
      problems.push(`${name}@${pkg.version}: declares an install script and is not on the allow-list`);
    }
  }
  return problems;
}

export function auditProblems(vulnerabilities: Record<string, AuditVulnerability>, policy: Policy, today: string): string[] {
  const problems: string[] = [];
  for (const v of Object.values(vulnerabilities)) {
    if (v.severity !== 'high' && v.severity !== 'critical') continue;
    const exception = policy.auditExceptions[v.name];
    if (!exception) problems.push(`${v.name}: ${v.severity} advisory without a recorded exception`);
    else if (exception.until < today) problems.push(`${v.name}: the exception expired on ${exception.until}`);
  }
  return problems;
}

/**
 * Packages whose `engines.node` refuses the oldest Node the README promises (issue 21: content-disposition@3
 * and cookie@2 want Node 22, so `npm install` warned on the Node 20 we run). `satisfies` is semver's.
 */
export function engineProblems(
  packages: Record<string, LockPackage>,
  oldestNode: string,
  satisfies: (version: string, range: string) => boolean,
): string[] {
  const problems: string[] = [];
  for (const [path, pkg] of Object.entries(packages)) {
    const range = pkg.engines?.node;
    if (!path.startsWith('node_modules/') || pkg.link || !range) continue;
    if (!satisfies(oldestNode, range)) {
      problems.push(`${packageName(path)}@${pkg.version}: needs Node ${range}, the README promises Node ${oldestNode}`);
    }
  }
  return problems;
}
