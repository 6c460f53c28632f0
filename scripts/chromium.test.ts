import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumMissingMessage, chromiumPlan } from './chromium.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

describe('npm test without Chromium', () => {
  it('names the one command that fixes it (sudo unless root)', () => {
    expect(chromiumMissingMessage('/usr/bin/chromium', true)).toContain('Run: apt-get update && apt-get install -y chromium');
    expect(chromiumMissingMessage('/usr/bin/chromium', false)).toContain(
      'Run: sudo apt-get update && sudo apt-get install -y chromium',
    );
  });

  it('installs it itself only where it may (root, apt-get, the default path), else asks', () => {
    const machine = { present: false, isRoot: true, hasApt: true, customPath: false };
    expect(chromiumPlan({ ...machine, present: true })).toBe('ready');
    expect(chromiumPlan(machine)).toBe('install');
    expect(chromiumPlan({ ...machine, isRoot: false })).toBe('ask');
    expect(chromiumPlan({ ...machine, hasApt: false })).toBe('ask');
    expect(chromiumPlan({ ...machine, customPath: true })).toBe('ask');
  });

  it('stops at once with that message and a failing exit code', () => {
    let failure: { status?: number; stderr?: Buffer } = {};
    try {
      execFileSync(process.execPath, ['--import', 'tsx', path.join(here, 'require-chromium.ts')], {
        env: { ...process.env, CHROMIUM_PATH: '/nonexistent/chromium' },
        stdio: 'pipe',
      });
    } catch (error) {
      failure = error as typeof failure;
    }
    expect(failure.status).toBe(1);
    expect(String(failure.stderr)).toContain('found none at /nonexistent/chromium. Run: ');
  });
});
