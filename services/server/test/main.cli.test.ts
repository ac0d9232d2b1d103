import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [MAIN, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'silent', ...env }, timeout: 30_000 });

describe('the entry point', () => {
  it('lists its targets', () => {
    const r = run(['--list-targets']);
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual(['all', 'gateway', 'identity', 'directory', 'files', 'activity', 'chat', 'tasks', 'compliance', 'insights', 'messaging', 'requests', 'signatures', 'billing']);
  });

  it('fails at boot on an unknown target', () => {
    const r = run(['--target=payroll']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Unknown target "payroll". Known targets: all, gateway, identity, directory, files, activity, chat, tasks, compliance, insights, messaging, requests, signatures, billing');
  });

  it('fails fast with a readable message on bad configuration', () => {
    const r = run(['--target=gateway'], { PORT: 'eighty' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Invalid configuration:');
    expect(r.stderr).toContain('PORT="eighty"');
  });
});
