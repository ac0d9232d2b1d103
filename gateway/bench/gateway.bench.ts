// `npm run bench:gateway`: what the gateway costs on an authenticated proxied GET.
// Starts the real entry point (all targets, embedded defaults unless POSTGRES_URL etc.
// are set) in a child process, signs in, then drives the same handler
// (GET /api/auth/me, which verifies the token) directly on the identity service's port
// and through the gateway, and prints p50/p95 latency and the throughput ratio.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const IDENTITY_PORT = Number(process.env.BENCH_IDENTITY_PORT ?? 18_101);
const MAIN = fileURLToPath(new URL('../../services/server/src/main.ts', import.meta.url));

const child = spawn(process.execPath, [MAIN], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: {
    ...process.env,
    LOG_LEVEL: 'warn',
    PORTAL_DATA_DIR: process.env.PORTAL_DATA_DIR ?? mkdtempSync(join(tmpdir(), 'bench-')),
    PORT: '0',
    IDENTITY_PORT: String(IDENTITY_PORT),
    PORTAL_ADMIN_USERNAME: 'bench-admin',
    PORTAL_ADMIN_PASSWORD: 'bench-secret',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
  },
});
const gatewayUrl = await new Promise<string>((resolve, reject) => {
  let out = '';
  child.stdout!.on('data', (c: Buffer) => {
    out += c.toString();
    const m = /open (http:\/\/localhost:\d+)\//.exec(out);
    if (m) resolve(m[1]!.replace('localhost', '127.0.0.1'));
  });
  child.on('exit', (code) => reject(new Error(`portal exited with ${code}`)));
});

try {
  const login = await fetch(`${gatewayUrl}/api/admin/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench-admin', password: 'bench-secret' }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };

  const measure = async (label: string, url: string) => {
    await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up
    const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    console.log(`${label.padEnd(8)} p50 ${r.latency.p50.toFixed(2)} ms  p95 ~${percentile95(r)} ms  ${r.requests.average.toFixed(0)} req/s`);
    return r;
  };
  const direct = await measure('direct', `http://127.0.0.1:${IDENTITY_PORT}/api/auth/me`);
  const proxied = await measure('gateway', `${gatewayUrl}/api/auth/me`);
  const added = proxied.latency.p50 - direct.latency.p50;
  const ratio = proxied.requests.average / direct.requests.average;
  console.log(`\ngateway adds ${added.toFixed(2)} ms at p50 (target <= 2 ms); throughput ratio ${(ratio * 100).toFixed(1)} % of direct (target >= 50 %)`);
  console.log(`(${CONNECTIONS} connections, ${DURATION_S} s each, all targets in one process on ${process.platform}/${process.arch})`);
} finally {
  child.kill('SIGTERM');
}

/** autocannon reports p90 and p97.5; p95 is interpolated between them. */
function percentile95(r: autocannon.Result): string {
  const l = r.latency as unknown as { p90: number; p97_5: number };
  return (l.p90 + ((l.p97_5 - l.p90) * 5) / 7.5).toFixed(2);
}
