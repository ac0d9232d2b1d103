import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createScratchDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { percentile95, summarize } from './bench-report.ts';
import { startPortal, type RunningPortal } from './portal.ts';
import { ephemeralServicePorts } from './portal-process.ts';

export interface BenchResult { label: string; p95: number; target: number }

/**
 * What the work areas' benchmarks share: the portal in this process (on a scratch PostgreSQL
 * database when POSTGRES_URL is set, else the embedded default), a JSON caller through its
 * gateway, paced autocannon runs whose p95 is compared with a target, and the closing report.
 */
export async function startBenchPortal(name: string) {
  const scratch = process.env.POSTGRES_URL ? await createScratchDatabase(process.env.POSTGRES_URL) : null;
  const portal: RunningPortal = await startPortal({
    env: {
      ...process.env, LOG_LEVEL: 'warn', PORT: '0', GATEWAY_HOST: '127.0.0.1', ...ephemeralServicePorts(),
      PORTAL_DATA_DIR: mkdtempSync(join(tmpdir(), `bench-${name}-`)), PORTAL_ADMIN_USERNAME: 'bench-admin', PORTAL_ADMIN_PASSWORD: 'bench-secret',
      GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
      // On a shared broker, queues of its own: no other run's leftover events reach this one.
      BUS_NAMESPACE: `bench-${name}-${randomBytes(3).toString('hex')}`, ...(scratch ? { POSTGRES_URL: scratch.url } : {}),
    },
  });
  const base = portal.gatewayUrl!;
  const results: BenchResult[] = [];

  const call = async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const r = await fetch(`${base}${path}`, {
      method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };

  return {
    portal,
    base,
    /** The scratch database's URL (null on the embedded default). */
    postgresUrl: scratch?.url ?? null,
    call,
    /** The platform administrator's token. */
    platformToken: async () => (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token,
    /** GETs `paths` in turn at `rate` requests a second for `durationS`; a target records the p95 for the report. */
    async paced(label: string, token: string, paths: string[], target: number | null, options: { rate: number; durationS: number }): Promise<void> {
      let n = 0;
      const r = await autocannon({
        url: `${base}${paths[0]}`, connections: options.rate, overallRate: options.rate, duration: options.durationS, headers: { authorization: `Bearer ${token}` },
        requests: [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }],
      });
      if (r.non2xx) throw new Error(`${label}: ${r.non2xx} non-2xx answers`);
      console.log(summarize(label, r));
      if (target !== null) results.push({ label, p95: percentile95(r), target });
    },
    record(result: BenchResult): void {
      results.push(result);
    },
    /** The closing lines: what ran where, and each target met or missed. */
    report(what: string): void {
      console.log(`\n${scratch ? 'PostgreSQL' : 'embedded (PGlite)'}, ${what}; ${availableParallelism()} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
      for (const r of results) console.log(`${r.p95 < r.target ? 'PASS' : 'MISS'} ${r.label}: p95 ${r.p95.toFixed(2)} ms (target < ${r.target} ms)`);
    },
    async stop(): Promise<void> {
      await portal.stop();
      await scratch?.drop();
    },
  };
}

/** Runs `fn` over 0..n-1 with `width` in flight. */
export async function inParallel(n: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next < n) await fn(next++); }));
}
