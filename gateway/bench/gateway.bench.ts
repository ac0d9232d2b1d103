// `npm run bench:gateway`: what the gateway costs on an authenticated proxied GET.
// Starts the real entry point in child processes, signs in, then drives the same
// handler (GET /api/auth/me, which verifies the token) directly on the identity
// service's port and through the gateway, and prints p50/p95 latency and the
// throughput ratio. BENCH_MODE=split (default) runs the gateway and identity as separate
// processes, as deployed; BENCH_MODE=all runs every target in one process (the
// embedded default, where gateway and service share one CPU core's event loop).
import autocannon from 'autocannon';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralServicePorts, spawnPortal, spawnService } from '@ledgerline/server/portal-process.ts';
import { percentile95, summarize } from '@ledgerline/server/bench-report.ts';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const IDENTITY_PORT = Number(process.env.BENCH_IDENTITY_PORT ?? 18_101);
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

try {
  const login = await fetch(`${portal.url}/api/admin/auth/login`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: 'bench-admin', password: 'bench-secret' }),
  });
  const { token } = (await login.json()) as { token: string };
  const headers = { authorization: `Bearer ${token}` };

  const measure = async (label: string, url: string) => {
    await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up
    const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S });
    if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx, ${r.errors} errors`);
    console.log(summarize(label, r));
    return r;
  };
  const direct = await measure('direct', `http://127.0.0.1:${IDENTITY_PORT}/api/auth/me`);
  const proxied = await measure('gateway', `${portal.url}/api/auth/me`);
  const ratio = proxied.requests.average / direct.requests.average;
  console.log(`\ngateway adds ${(proxied.latency.p50 - direct.latency.p50).toFixed(2)} ms at p50, ${(percentile95(proxied) - percentile95(direct)).toFixed(2)} ms at p95 (target <= 2 ms at p50)`);
  console.log(`throughput through the gateway: ${(ratio * 100).toFixed(1)} % of direct (target >= 50 %)`);
  console.log(`(${CONNECTIONS} connections, ${DURATION_S} s each, ${MODE === 'split' ? 'gateway and identity in separate processes' : 'every target in one process'})`);
} finally {
  await portal.stop();
  await identity?.stop();
}
