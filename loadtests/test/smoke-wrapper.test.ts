// `npm run loadtest:smoke` as CI runs it: the product on its embedded default and k6's smoke
// profile against it. A threshold set deliberately out of reach must fail the run (k6
// exits 99 and the wrapper with it): that is what makes a slow path fail CI.
import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureK6 } from '../k6.ts';

const SMOKE = fileURLToPath(new URL('../smoke.ts', import.meta.url));

interface Verdict { held: boolean; thresholds: { metric: string; threshold: string; ok: boolean; value: number | null }[]; groups: { group: string; requests: number }[] }

/** A short smoke run of two scenarios; its exit code, output and verdict. */
function smoke(extraEnv: Record<string, string>): { status: number | null; output: string; verdict: Verdict; outDir: string } {
  const outDir = mkdtempSync(join(tmpdir(), 'loadtest-wrapper-'));
  const run = spawnSync(process.execPath, [SMOKE], {
    encoding: 'utf8', timeout: 240_000,
    // As CI runs it: not in jest's test mode.
    env: { ...process.env, NODE_ENV: undefined, LOADTEST_OUT: outDir, LOADTEST_SMOKE_S: '5', LOADTEST_SCENARIOS: 'clients,dashboard', ...extraEnv },
  });
  const verdict = (JSON.parse(readFileSync(join(outDir, 'summary.json'), 'utf8')) as { verdict: Verdict }).verdict;
  return { status: run.status, output: run.stdout + run.stderr, verdict, outDir };
}

describe('npm run loadtest:smoke', () => {
  it('passes with the suite\'s thresholds and fails when one is out of reach', () => {
    ensureK6();
    const held = smoke({});
    const broken = smoke({ LOADTEST_P95_MS: 'dashboard=0.001' });
    try {
      expect(held.output).toContain('every threshold held');
      expect(held.status).toBe(0);
      expect(held.verdict.held).toBe(true);
      expect(held.verdict.groups.map((g) => g.group)).toEqual(['clients', 'dashboard']);
      for (const g of held.verdict.groups) expect(g.requests).toBeGreaterThan(0);
      // The web dashboard's HTML report of the run.
      expect(readFileSync(join(held.outDir, 'report.html'), 'utf8')).toMatch(/^<!DOCTYPE html>/i);

      expect(broken.status).toBe(99);
      expect(broken.output).toContain('thresholds broken: http_req_duration{group:::dashboard} p(95)<0.001');
      const failing = broken.verdict.thresholds.filter((t) => !t.ok);
      expect(failing).toEqual([{ metric: 'http_req_duration{group:::dashboard}', threshold: 'p(95)<0.001', ok: false, value: expect.any(Number) }]);
      expect(broken.output).toMatch(/✗ http_req_duration\{group:::dashboard\} p\(95\)<0\.001 \([\d.]+\)/);
      expect(broken.output).toMatch(/✓ http_req_duration\{group:::clients\} p\(95\)<300/);
      expect(existsSync(join(broken.outDir, 'report.html'))).toBe(true);
    } finally {
      for (const run of [held, broken]) rmSync(run.outDir, { recursive: true, force: true });
    }
  }, 600_000);
});
