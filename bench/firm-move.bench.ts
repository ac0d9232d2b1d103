// `npm run bench:firm-move`: exports and imports a firm of BENCH_FILES files of
// BENCH_FILE_KB each (default 10,000 × 100 KB = 1 GB) and BENCH_TASKS tasks (with the
// files' own rows, ~100,000 rows in all), and prints the time of each and the growth of
// the services' process memory (RSS) over its baseline before the export. The product runs
// as deployed (services in one child process, the gateway in another) on the environment's
// servers (the embedded default, or PostgreSQL when POSTGRES_URL is exported).
// Target (DESIGN §8, issue 28): memory < 200 MB over the baseline for both.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { startBenchPortal } from './lib/bench-portal.ts';
import { inParallel, jsonCaller } from './lib/bench-client.ts';
import { testClient } from '@ledgerline/server/portal-harness.ts';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const FILE_KB = Number(process.env.BENCH_FILE_KB ?? 100);
const TASKS = Number(process.env.BENCH_TASKS ?? 30_000);
const MEMORY_TARGET_MB = 200;

const portal = await startBenchPortal({ mode: 'split', firstPort: Number(process.env.BENCH_FIRST_PORT ?? 18_300), dataPrefix: 'bench-firm-move-' });
const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${portal.servicesPid}/status`, 'utf8'))![1]) / 1024;
/** The services process's CPU time so far, in clock ticks (user + system). */
const cpuTicks = () => {
  const fields = readFileSync(`/proc/${portal.servicesPid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
/** Resolves once the services use under a tenth of a core over 5 s. */
async function servicesIdle(): Promise<void> {
  const WINDOW_MS = 5_000;
  const TICKS_PER_SECOND = 100;
  for (;;) {
    const before = cpuTicks();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    if (cpuTicks() - before < (WINDOW_MS / 1000) * TICKS_PER_SECOND * 0.1) return;
  }
}

try {
  const call = jsonCaller(portal.url);
  const token = (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token;
  const firm = `move${randomBytes(3).toString('hex')}`;
  const company = await call<{ id: number }>('POST', '/api/companies', { name: 'Bench Move', shortName: firm }, token);
  const client = await call<{ id: number }>('POST', `/api/${firm}/clients`, testClient('Bench Client'), token);

  const seedStarted = Date.now();
  const body = (i: number) => {
    const text = Buffer.alloc(FILE_KB * 1024, `statement ${i} turnover ${i * 7} `);
    return new Blob([new Uint8Array(text)]);
  };
  await inParallel(FILES, 8, async (i) => {
    const form = new FormData();
    form.append('fileType', 'company_document');
    form.append('clientId', String(client.id));
    form.append('file', body(i), `statement-${i}.txt`);
    const r = await fetch(`${portal.url}/api/${firm}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (r.status !== 201) throw new Error(`upload ${i}: ${r.status}`);
  });
  await inParallel(TASKS, 8, async (i) => {
    await call('POST', `/api/${firm}/tasks`, { title: `Bench task ${i}`, clientIds: [client.id] }, token);
  });
  console.log(`seeded ${FILES} files of ${FILE_KB} KB and ${TASKS} tasks in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);
  // Text extraction, search vectors, insights and the read models work through the uploads
  // after they are answered: the export is measured once the services are idle, not while
  // that backlog competes with it.
  const settleStarted = Date.now();
  await servicesIdle();
  console.log(`services idle after ${((Date.now() - settleStarted) / 1000).toFixed(0)} s more`);

  const watch = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const baseline = rssMb();
    let peak = baseline;
    const timer = setInterval(() => { peak = Math.max(peak, rssMb()); }, 100);
    const started = Date.now();
    try {
      return await work();
    } finally {
      clearInterval(timer);
      const grown = peak - baseline;
      console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s, services RSS ${baseline.toFixed(0)} → peak ${peak.toFixed(0)} MB (+${grown.toFixed(0)} MB; target < ${MEMORY_TARGET_MB}) ${grown < MEMORY_TARGET_MB ? 'ok' : 'OVER'}`);
    }
  };
  const poll = async <T extends { status: string }>(read: () => Promise<T>): Promise<T> => {
    for (;;) {
      const state = await read();
      if (state.status === 'failed') throw new Error(JSON.stringify(state));
      if (state.status === 'ready') return state;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  const ready = await watch('export', async () => {
    const job = await call<{ id: string }>('POST', `/api/companies/${company.id}/export`, undefined, token);
    return poll(async () => (await call<{ id: string; status: string; size: number }[]>('GET', `/api/companies/${company.id}/exports`, undefined, token)).find((e) => e.id === job.id)!);
  });
  console.log(`archive: ${(ready.size / 1024 / 1024).toFixed(0)} MB`);
  const download = await fetch(`${portal.url}/api/companies/${company.id}/exports/${ready.id}/download`, { headers: { authorization: `Bearer ${token}` } });
  const archive = await download.blob();

  await watch('import', async () => {
    const form = new FormData();
    form.append('name', 'Bench Copy');
    form.append('shortName', `${firm}c`);
    form.append('file', archive, 'firm.tar');
    const r = await fetch(`${portal.url}/api/companies/import`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (r.status !== 202) throw new Error(`import: ${r.status} ${await r.text()}`);
    const job = (await r.json()) as { id: string };
    return poll(() => call<{ status: string }>('GET', `/api/companies/imports/${job.id}`, undefined, token));
  });
} finally {
  await portal.stop();
}
