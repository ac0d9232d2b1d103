// `npm run bench:gateway`: what the gateway costs on an authenticated proxied GET, next to
// nginx (Debian's package) in front of the same upstream in the same run.
// Starts the real entry point in child processes, signs in, then drives the same handler
// (GET /api/auth/me, which verifies the token) directly on the identity service's port,
// through nginx, through the gateway and through a bare Node proxy (bare-node-proxy.ts:
// Node's HTTP server and the gateway's upstream proxy with none of its checks, which shows
// how much of the gap to nginx is Node's own HTTP and socket work rather than the gateway's
// protections), alternating the four over BENCH_ROUNDS rounds so background noise hits them
// alike, and prints p50/p95 latency and the throughput ratios. BENCH_MODE=split (default)
// runs the gateway and identity as separate processes, as deployed; BENCH_MODE=all runs every
// target in one process (the embedded default, where gateway and service share one CPU core's
// event loop).
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralServicePorts, spawnPortal, spawnService } from '@ledgerline/server/portal-process.ts';
import { percentile95, summarize } from './lib/bench-report.ts';
import { startNginxProxy } from './gateway/nginx-proxy.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const IDENTITY_PORT = Number(process.env.BENCH_IDENTITY_PORT ?? 18_101);
const NGINX_PORT = Number(process.env.BENCH_NGINX_PORT ?? 18_180);
const BARE_PORT = Number(process.env.BENCH_BARE_PORT ?? 18_181);
const MODE = process.env.BENCH_MODE === 'all' ? 'all' : 'split';

const env = {
  ...process.env,
  LOG_LEVEL: 'warn',
  PORTAL_DATA_DIR: process.env.PORTAL_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-')),
  PORT: '0',
  ...ephemeralServicePorts(),
  IDENTITY_PORT: String(IDENTITY_PORT),
  IDENTITY_SERVICE_URL: `http://127.0.0.1:${IDENTITY_PORT}`,
  PORTAL_ADMIN_USERNAME: 'bench-admin',
  PORTAL_ADMIN_PASSWORD: 'bench-secret',
  GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
};
const identity = MODE === 'split' ? await spawnService(env, 'identity', IDENTITY_PORT) : null;
const portal = await spawnPortal(env, MODE === 'split' ? ['--target=gateway'] : []);
const nginx = await startNginxProxy(IDENTITY_PORT, NGINX_PORT);
const bare = spawn(process.execPath, [new URL('./gateway/bare-node-proxy.ts', import.meta.url).pathname, `http://127.0.0.1:${IDENTITY_PORT}`, String(BARE_PORT)], { env, stdio: ['ignore', 'pipe', 'inherit'] });
// Its one line says it listens; an exit before that fails the run instead of waiting for ever.
await new Promise<void>((listening, failed) => {
  const exited = (code: number | null) => failed(new Error(`bare-node-proxy.ts exited with ${code}`));
  bare.once('exit', exited);
  bare.stdout!.once('data', () => {
    bare.off('exit', exited);
    listening();
  });
});

interface Totals { requests: number; seconds: number; p50: number[]; p95: number[]; cpuMs: number }
const totals = new Map<string, Totals>();

// The machine is shared, so throughput swings with whatever else runs; the CPU time the
// server side (identity, nginx's worker, the gateway) spends per request does not.
const serverPids = [portal.child.pid!, identity?.child.pid, ...nginx.pids, bare.pid].filter((p): p is number => p !== undefined);
const CLOCK_TICKS_PER_S = 100;
const cpuMsOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S; // utime + stime
};
const serverCpuMs = () => serverPids.reduce((sum, pid) => sum + cpuMsOf(pid), 0);

try {
  const login = await fetch(`${portal.url}/api/admin/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench-admin', password: 'bench-secret' }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };

  const measure = async (label: string, url: string) => {
    await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up
    const cpuBefore = serverCpuMs();
    const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
    const cpuMs = serverCpuMs() - cpuBefore;
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    console.log(summarize(label, r));
    const t = totals.get(label) ?? { requests: 0, seconds: 0, p50: [], p95: [], cpuMs: 0 };
    t.cpuMs += cpuMs;
    t.requests += r.requests.total;
    t.seconds += r.duration;
    t.p50.push(r.latency.p50);
    t.p95.push(percentile95(r));
    totals.set(label, t);
  };
  for (let round = 0; round < ROUNDS; round++) {
    await measure('direct', `http://127.0.0.1:${IDENTITY_PORT}/api/auth/me`);
    await measure('nginx', `${nginx.url}/api/auth/me`);
    await measure('gateway', `${portal.url}/api/auth/me`);
    await measure('bare node', `http://127.0.0.1:${BARE_PORT}/api/auth/me`);
  }

  const rate = (label: string) => totals.get(label)!.requests / totals.get(label)!.seconds;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const p95 = (label: string) => mean(totals.get(label)!.p95);
  const cpuUs = (label: string) => (totals.get(label)!.cpuMs * 1000) / totals.get(label)!.requests;
  console.log(`\nover ${ROUNDS} alternating rounds:`);
  for (const label of ['direct', 'nginx', 'gateway', 'bare node']) {
    console.log(`  ${label.padEnd(9)} ${rate(label).toFixed(1)} req/s, p95 ~${p95(label).toFixed(2)} ms, server CPU ${cpuUs(label).toFixed(0)} µs per request`);
  }
  console.log(`gateway throughput: ${((rate('gateway') / rate('nginx')) * 100).toFixed(1)} % of nginx (target >= 75 %), ${((rate('gateway') / rate('direct')) * 100).toFixed(1)} % of direct; nginx ${((rate('nginx') / rate('direct')) * 100).toFixed(1)} % of direct`);
  console.log(`bare Node proxy (no checks): ${((rate('bare node') / rate('nginx')) * 100).toFixed(1)} % of nginx; the gateway carries ${((rate('gateway') / rate('bare node')) * 100).toFixed(1)} % of it`);
  const proxyCpu = (label: string) => (cpuUs(label) - cpuUs('direct')).toFixed(0);
  console.log(`proxy CPU per request: gateway ${proxyCpu('gateway')} µs, bare Node proxy ${proxyCpu('bare node')} µs, nginx ${proxyCpu('nginx')} µs`);
  console.log(`gateway p95 ${(p95('gateway') - p95('nginx')).toFixed(2)} ms over nginx's (target <= 2 ms)`);
  console.log(`(${CONNECTIONS} connections, ${DURATION_S} s per measurement, ${MODE === 'split' ? 'gateway and identity in separate processes' : 'every target in one process'}, nginx with one worker)`);
} finally {
  bare.kill('SIGTERM');
  await nginx.stop();
  await portal.stop();
  await identity?.stop();
}
