/**
 * The deployment files (Dockerfile, compose.yaml, deploy/k8s, deploy/nginx.conf; issue 24) checked for what can be
 * checked without Docker or a cluster: every variable they set is one the server reads and parses, ports and probes
 * agree with the server's, names that refer to each other match, the image runs as non-root with a healthcheck,
 * and the migration command exists and works. What this does not prove: that the image builds or the manifests
 * apply (no Docker or Kubernetes on this machine); docs/operations.md says how to try them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { APPEAL_FILE_MAX_BYTES, APPEAL_SLOTS } from '@hcp/contract';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { CONFIG_ENV_NAMES, loadConfig, REPO_ROOT } from '../src/config.ts';

const read = (file: string) => readFileSync(path.join(REPO_ROOT, file), 'utf8');
const known = new Set(CONFIG_ENV_NAMES);
/** Set for Node itself, not read by the server's config. */
const NODE_ONLY = new Set(['NODE_ENV']);
const HEALTH = { alive: '/healthz', ready: '/readyz' };
const MIGRATE = 'apps/server/src/migrate.ts';

// biome-ignore lint/suspicious/noExplicitAny: parsed YAML is checked field by field below
type Doc = Record<string, any>;

/** Stand-ins for the secrets, to parse the configuration as the server would. */
const SECRETS: Record<string, string> = {
  DATABASE_URL: 'postgres://portal:secret@db:5432/portal',
  REDIS_URL: 'redis://cache:6379',
  AUTH_SIGNING_KEY: 'k'.repeat(48),
};

describe('Dockerfile', () => {
  const text = read('Dockerfile');
  const stages = [...text.matchAll(/^FROM\s+\S+\s+AS\s+(\S+)/gim)].map((m) => m[1]);
  const final = text.slice(text.lastIndexOf('\nFROM '));

  it('builds in stages and runs production dependencies only, as a non-root user, with a healthcheck', () => {
    expect(stages).toEqual(['build', 'deps', 'runtime']);
    expect(text).toMatch(/npm ci --omit=dev/);
    expect(final).toMatch(/^USER\s+node\s*$/m);
    expect(final).not.toMatch(/^USER\s+(root|0)\s*$/m);
    expect(final).toMatch(new RegExp(`HEALTHCHECK[\\s\\S]*${HEALTH.alive}`));
    // Nothing from the build stage but the web app's static files.
    expect([...final.matchAll(/--from=(\S+)/g)].map((m) => m[1])).toEqual(['deps', 'build']);
    expect(final).toMatch(/--from=build\s+\S+\s+\/app\/apps\/web\/dist/);
  });

  it('sets only variables the server reads, with values it accepts, and exposes the port it listens on', () => {
    const env = Object.fromEntries(
      [...final.matchAll(/^\s*(?:ENV\s+)?([A-Z_]+)=(\S+?)\s*\\?$/gm)].map((m) => [m[1] as string, m[2] as string]),
    );
    expect(Object.keys(env).length).toBeGreaterThan(4);
    for (const name of Object.keys(env)) if (!NODE_ONLY.has(name)) expect(known, name).toContain(name);
    const config = loadConfig({ ...env, ...SECRETS });
    expect(config).toMatchObject({ host: '0.0.0.0', seedDemo: false, trustProxy: true, dataDir: '/data' });
    expect(final).toMatch(new RegExp(`^EXPOSE\\s+${config.port}\\s*$`, 'm'));
  });

  it('copies only paths that exist and starts the server’s entry point', () => {
    for (const m of text.matchAll(/^COPY\s+(?:--chown=\S+\s+)?(?!--from)(\S+)\s+\S+\s*$/gm)) {
      expect(existsSync(path.join(REPO_ROOT, m[1] as string)), m[1]).toBe(true);
    }
    const cmd = JSON.parse(/^CMD\s+(\[.*\])\s*$/m.exec(final)?.[1] ?? '[]') as string[];
    expect(cmd.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
    expect(existsSync(path.join(REPO_ROOT, cmd[3] as string))).toBe(true);
    // tsx runs the TypeScript in production, so it must be a production dependency.
    expect(JSON.parse(read('package.json')).dependencies).toHaveProperty('tsx');
  });
});

/** Compose's own interpolation: `${NAME:-default}` takes the default, `${NAME:?message}` needs `given`. */
function interpolate(env: Record<string, string>, given: Record<string, string>): Record<string, string> {
  const value = (raw: string) =>
    raw.replace(/\$\{(\w+)(?::-([^}]*)|:\?[^}]*)?\}/g, (_, name: string, fallback: string | undefined) => {
      const resolved = given[name] ?? fallback;
      if (resolved === undefined) throw new Error(`compose needs ${name}`);
      return resolved;
    });
  return Object.fromEntries(Object.entries(env).map(([name, raw]) => [name, value(String(raw))]));
}

describe('compose.yaml', () => {
  const compose = parse(read('compose.yaml'), { merge: true }) as Doc;
  const services = compose.services as Record<string, Doc>;
  const apps = ['app1', 'app2'].map((name) => services[name] as Doc);

  it('runs two instances of the one image beside PostgreSQL, Redis, a one-off migration and a proxy', () => {
    expect(Object.keys(services).sort()).toEqual(['app1', 'app2', 'migrate', 'postgres', 'proxy', 'redis']);
    for (const app of apps) {
      expect(app.build).toBe('.');
      expect(app.depends_on.migrate.condition).toBe('service_completed_successfully');
    }
    expect(services.migrate?.command).toEqual(['node', '--import', 'tsx', MIGRATE]);
    expect(existsSync(path.join(REPO_ROOT, MIGRATE))).toBe(true);
  });

  it('gives both instances the same settings, read and accepted by the server, pointing at the services here', () => {
    const [one, two] = apps.map((app) => app.environment as Record<string, string>);
    expect(one).toEqual(two);
    const env = one as Record<string, string>;
    for (const name of Object.keys(env)) expect(known, name).toContain(name);
    const config = loadConfig(interpolate(env, { AUTH_SIGNING_KEY: SECRETS.AUTH_SIGNING_KEY as string }));
    expect(new URL(config.databaseUrl ?? '').hostname).toBe('postgres');
    expect(new URL(config.redisUrl ?? '').hostname).toBe('redis');
    // The shared key is required, never defaulted: a per-instance key would sign users out between instances.
    expect(one?.AUTH_SIGNING_KEY).toMatch(/^\$\{AUTH_SIGNING_KEY:\?/);
    expect(services.migrate?.environment.DATABASE_URL).toBe(config.databaseUrl);
  });

  it('proxies round robin to both instances on their port, letting an appeal’s attachments through', () => {
    const nginx = read('deploy/nginx.conf');
    const port = loadConfig({ PORT: read('Dockerfile').match(/PORT=(\d+)/)?.[1] ?? '' }).port;
    expect([...nginx.matchAll(/^\s*server\s+([\w.-]+:\d+)/gm)].map((m) => m[1])).toEqual([`app1:${port}`, `app2:${port}`]);
    const megabytes = Number(/client_max_body_size\s+(\d+)m;/.exec(nginx)?.[1]);
    expect(megabytes * 1024 * 1024).toBeGreaterThan(APPEAL_SLOTS.length * APPEAL_FILE_MAX_BYTES);
    expect(services.proxy?.volumes).toContain('./deploy/nginx.conf:/etc/nginx/conf.d/default.conf:ro');
  });
});

describe('Kubernetes manifests', () => {
  const dir = path.join(REPO_ROOT, 'deploy/k8s');
  const kustomization = parse(read('deploy/k8s/kustomization.yaml')) as Doc;
  const docs = (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(readFileSync(path.join(dir, file), 'utf8')).map((d) => d.toJS() as Doc),
  );
  const byKind = (kind: string) => docs.filter((d) => d.kind === kind);
  const [deployment] = byKind('Deployment') as [Doc];
  const [job] = byKind('Job') as [Doc];
  const [configMap] = byKind('ConfigMap') as [Doc];
  const container = deployment.spec.template.spec.containers[0] as Doc;

  it('lists every manifest of the folder, one of each kind the issue asks for', () => {
    const files = readdirSync(dir).filter((f) => f !== 'kustomization.yaml');
    expect([...(kustomization.resources as string[])].sort()).toEqual(files.sort());
    expect(docs.map((d) => d.kind).sort()).toEqual(
      ['ConfigMap', 'Deployment', 'HorizontalPodAutoscaler', 'Job', 'PodDisruptionBudget', 'Service'].sort(),
    );
  });

  it('configures the server with names it reads and values it accepts; secrets come from a Secret', () => {
    const data = configMap.data as Record<string, string>;
    const fromSecret = [...(container.env as Doc[]), ...(job.spec.template.spec.containers[0].env as Doc[])];
    for (const name of [...Object.keys(data), ...fromSecret.map((e) => e.name as string)]) expect(known, name).toContain(name);
    for (const entry of fromSecret) {
      expect(entry.valueFrom.secretKeyRef.name).toBe('hcp-portal-secrets');
      expect(entry.valueFrom.secretKeyRef.key).toBe(entry.name);
    }
    const config = loadConfig({ ...data, ...SECRETS });
    expect(config).toMatchObject({ appEnv: 'production', host: '0.0.0.0', seedDemo: false, devMailLog: false });
    expect(container.envFrom[0].configMapRef.name).toBe(configMap.metadata.name);
    expect(container.ports).toEqual([{ name: 'http', containerPort: config.port }]);
  });

  it('probes readiness on /readyz and liveness on /healthz, on the container’s port, and runs as non-root', () => {
    expect(container.readinessProbe.httpGet).toEqual({ path: HEALTH.ready, port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: HEALTH.alive, port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: HEALTH.alive, port: 'http' });
    for (const pod of [deployment.spec.template.spec, job.spec.template.spec]) {
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).not.toBe(0);
    }
    expect(container.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    // A read-only root needs somewhere to write: the data volume and the temporary folder tsx caches in.
    expect((container.volumeMounts as Doc[]).map((m) => m.mountPath).sort()).toEqual([configMap.data.DATA_DIR, '/tmp'].sort());
  });

  it('points the Service, autoscaler and disruption budget at the Deployment and its pods, with no shared volume', () => {
    const labels = deployment.spec.template.metadata.labels as Record<string, string>;
    expect(deployment.spec.selector.matchLabels).toEqual(labels);
    const [service] = byKind('Service') as [Doc];
    expect(service.spec.selector).toEqual(labels);
    expect(service.spec.ports[0].targetPort).toBe('http');
    const [hpa] = byKind('HorizontalPodAutoscaler') as [Doc];
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata.name });
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
    const [pdb] = byKind('PodDisruptionBudget') as [Doc];
    expect(pdb.spec.selector.matchLabels).toEqual(labels);
    // Pods share nothing on disk (attachments are in the database or S3): no shared volume to provision.
    expect(byKind('PersistentVolumeClaim')).toEqual([]);
    expect((deployment.spec.template.spec.volumes as Doc[]).every((v) => v.emptyDir)).toBe(true);
    expect(job.spec.template.spec.containers[0].command).toEqual(['node', '--import', 'tsx', MIGRATE]);
  });
});

describe('npm run migrate', () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, MIGRATE)], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });

  it('brings an empty database up to date, again is a no-op, and a bad setting stops it with one line', () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'hcp-migrate-'));
    try {
      for (let i = 0; i < 2; i += 1) {
        const result = run({ DATA_DIR: dataDir });
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout.trim()).toBe('hcp-portal: the embedded database’s schema is up to date.');
      }
      const bad = run({ DATA_DIR: dataDir, DATABASE_URL: 'mysql://x' });
      expect(bad.status).toBe(1);
      expect(bad.stderr.trim()).toMatch(/^hcp-portal: Invalid configuration: DATABASE_URL must start with postgres/);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
