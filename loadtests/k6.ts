// Runs the k6 suite (loadtests/k6/main.ts) with the pinned k6, built with `go install` on
// first use and cached like the other Go tools (CI keeps $CI_CACHE_DIR between runs).
// `node loadtests/k6.ts` builds it when missing and prints its path (.ci/run does).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const K6_VERSION = 'v1.8.1';
const K6_MODULE = 'go.k6.io/k6';
const HERE = fileURLToPath(new URL('.', import.meta.url));
export const SCRIPT = join(HERE, 'k6', 'main.ts');

/** Where the pinned k6 is kept: K6_BIN, else $CI_CACHE_DIR/go-bin/k6-<version>/k6. */
export function k6Path(): string {
  return process.env.K6_BIN || join(process.env.CI_CACHE_DIR || '/opt/ci-cache', 'go-bin', `k6-${K6_VERSION}`, 'k6');
}

const versionOf = (bin: string): string => spawnSync(bin, ['version'], { encoding: 'utf8' }).stdout ?? '';

/** The pinned k6's path, building it with `go install` when it is missing (a few minutes, once). */
export function ensureK6(): string {
  const bin = k6Path();
  if (existsSync(bin) && versionOf(bin).includes(K6_VERSION)) return bin;
  if (process.env.K6_BIN) throw new Error(`K6_BIN=${bin} is not k6 ${K6_VERSION} (${versionOf(bin).trim() || 'not runnable'})`);
  const go = ['go', '/usr/local/go/bin/go'].find((candidate) => spawnSync(candidate, ['version']).status === 0);
  if (!go) throw new Error(`k6 ${K6_VERSION} is missing at ${bin} and Go is not installed to build it (go install ${K6_MODULE}@${K6_VERSION})`);
  console.error(`building k6 ${K6_VERSION} into ${bin} (go install, once: a few minutes)`);
  mkdirSync(join(bin, '..'), { recursive: true });
  const built = spawnSync(go, ['install', `${K6_MODULE}@${K6_VERSION}`], { stdio: ['ignore', 2, 2], env: { ...process.env, GOBIN: join(bin, '..'), GOFLAGS: '-mod=mod' } });
  if (built.status !== 0 || !versionOf(bin).includes(K6_VERSION)) throw new Error(`go install ${K6_MODULE}@${K6_VERSION} failed`);
  return bin;
}

export interface K6Run {
  profile: string;
  baseUrl: string;
  admin: { username: string; password: string };
  /** The run's report folder: summary.json (handleSummary) and report.html (k6's web dashboard). */
  outDir: string;
  /** Further LOADTEST_* settings (they win over the caller's environment). */
  env?: Record<string, string>;
}

/**
 * Runs the profile with k6 and returns the exit code to end with: k6's own (99 when a
 * threshold broke), except for stress, which is judged by its knee (summary.json's
 * verdict): its thresholds break by design once the knee is passed.
 */
export async function runK6(run: K6Run): Promise<number> {
  const k6 = ensureK6();
  mkdirSync(run.outDir, { recursive: true });
  const env = {
    ...process.env,
    BASE_URL: run.baseUrl,
    LOADTEST_PROFILE: run.profile,
    LOADTEST_ADMIN_USERNAME: run.admin.username,
    LOADTEST_ADMIN_PASSWORD: run.admin.password,
    LOADTEST_OUT: run.outDir,
    K6_NO_USAGE_REPORT: 'true',
    // The web dashboard's self-contained HTML report, without its live server (no port to
    // collide on); a short period gives short runs a chart worth reading.
    K6_WEB_DASHBOARD: 'true',
    K6_WEB_DASHBOARD_PORT: '-1',
    K6_WEB_DASHBOARD_EXPORT: join(run.outDir, 'report.html'),
    K6_WEB_DASHBOARD_PERIOD: process.env.K6_WEB_DASHBOARD_PERIOD ?? (['smoke', 'stress'].includes(run.profile) ? '2s' : '10s'),
    ...run.env,
  };
  console.log(`k6 ${K6_VERSION}: profile "${run.profile}" against ${run.baseUrl}; reports in ${run.outDir}`);
  const code = await new Promise<number>((resolve, reject) => {
    // Without a terminal, k6's progress bar would print a block every second into the log.
    const child = spawn(k6, ['run', ...(process.stdout.isTTY ? [] : ['--quiet']), SCRIPT], { env, stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (status, signal) => resolve(status ?? (signal ? 1 : 0)));
  });
  console.log(`reports: ${join(run.outDir, 'summary.json')} and ${join(run.outDir, 'report.html')}`);
  if (run.profile !== 'stress') return code;
  const summary = join(run.outDir, 'summary.json');
  if (!existsSync(summary)) return code || 1;
  return (JSON.parse(readFileSync(summary, 'utf8')) as { verdict: { held: boolean } }).verdict.held ? 0 : 1;
}

export const defaultOutDir = (profile: string): string => join(HERE, 'results', `${profile}-${new Date().toISOString().replace(/[:.]/g, '-')}`);

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) console.log(ensureK6());
