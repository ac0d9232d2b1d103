// `npm run bench:firm-move`: exports and imports a firm of BENCH_FILES files of
// BENCH_FILE_KB each (default 10,000 × 100 KB = 1 GB) and BENCH_TASKS tasks (with the
// files' and the tasks' own rows, over 100,000 rows in all), and prints the time of each
// and the growth of the services' and the gateway's process memory (RSS) over its baseline
// before the export. The product runs as deployed (services in one child process, the
// gateway in another) on the environment's servers (the embedded default, or PostgreSQL
// and MinIO when POSTGRES_URL and S3_ENDPOINT are exported).
// Target (DESIGN §8, issue 28): memory < 200 MB over the baseline for both.
import { createWriteStream, openAsBlob, readFileSync } from 'node:fs';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { startBenchPortal } from './lib/bench-portal.ts';
import { inParallel, jsonCaller } from './lib/bench-client.ts';
import { testClient } from '@ledgerline/server/portal-harness.ts';

const FILES = Number(process.env.BENCH_FILES ?? 10_000);
const FILE_KB = Number(process.env.BENCH_FILE_KB ?? 100);
const TASKS = Number(process.env.BENCH_TASKS ?? 30_000);
/**
 * Clients the files and tasks are spread over. A firm's work is spread over its clients,
 * and it matters: insights analyse a client again after each of its uploads, reading all
 * of that client's files, so 10,000 files of one client are a backlog of hours.
 */
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 100);
const MEMORY_TARGET_MB = 200;
/** Every TEXT_EVERY-th file is a short text statement, so the copy has content to search. */
const TEXT_EVERY = 20;
/** How long the services may take over the seed's backlog before the export is measured anyway. */
const SETTLE_LIMIT_MS = Number(process.env.BENCH_SETTLE_MINUTES ?? 60) * 60_000;

const portal = await startBenchPortal({ mode: 'split', firstPort: Number(process.env.BENCH_FIRST_PORT ?? 18_300), dataPrefix: 'bench-firm-move-' });
const rssMb = (pid: number | undefined) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
/** The services process's CPU time so far, in clock ticks (user + system). */
const cpuTicks = () => {
  const fields = readFileSync(`/proc/${portal.servicesPid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
/**
 * Resolves true once the services use under a tenth of a core over 5 s, false when they
 * are still busy after SETTLE_LIMIT_MS; says once a minute how busy they are.
 */
async function servicesIdle(): Promise<boolean> {
  const WINDOW_MS = 5_000;
  const TICKS_PER_SECOND = 100;
  const started = Date.now();
  let said = started;
  while (Date.now() - started < SETTLE_LIMIT_MS) {
    const before = cpuTicks();
    await new Promise((resolve) => setTimeout(resolve, WINDOW_MS));
    const busy = (cpuTicks() - before) / ((WINDOW_MS / 1000) * TICKS_PER_SECOND);
    if (busy < 0.1) return true;
    if (Date.now() - said >= 60_000) {
      said = Date.now();
      console.log(`  services still at ${(busy * 100).toFixed(0)}% of a core after ${((said - started) / 60_000).toFixed(0)} min`);
    }
  }
  return false;
}

try {
  const call = jsonCaller(portal.url);
  const token = (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token;
  const firm = `move${randomBytes(3).toString('hex')}`;
  const company = await call<{ id: number }>('POST', '/api/companies', { name: 'Bench Move', shortName: firm }, token);
  const clients: number[] = [];
  for (let c = 0; c < CLIENTS; c++) clients.push((await call<{ id: number }>('POST', `/api/${firm}/clients`, testClient(`Bench Client ${c}`), token)).id);
  const clientOf = (i: number) => clients[i % CLIENTS]!;

  const seedStarted = Date.now();
  // Most files are compressed bundles (a client's receipts, say): incompressible bytes that
  // text extraction reads the head of and leaves, as it does scans without a text layer
  // once they are past OCR. Text files of the full size would each be extracted and
  // indexed, a backlog of hours on a shared machine that has nothing to do with moving a
  // firm. Every TEXT_EVERY-th file is a short statement that search finds.
  const file = (i: number): [Blob, string] => (i % TEXT_EVERY === 0
    ? [new Blob([`statement ${i} turnover ${i * 7}\n`.repeat(100)]), `statement-${i}.txt`]
    : [new Blob([new Uint8Array(Buffer.concat([Buffer.from([0x1f, 0x8b]), randomBytes(FILE_KB * 1024 - 2)]))]), `receipts-${i}.gz`]);
  let seededBytes = 0;
  await inParallel(FILES, 8, async (i) => {
    const form = new FormData();
    const [blob, name] = file(i);
    seededBytes += blob.size;
    form.append('fileType', 'company_document');
    form.append('clientId', String(clientOf(i)));
    form.append('file', blob, name);
    const r = await fetch(`${portal.url}/api/${firm}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (r.status !== 201) throw new Error(`upload ${i}: ${r.status}`);
  });
  await inParallel(TASKS, 8, async (i) => {
    await call('POST', `/api/${firm}/tasks`, { title: `Bench task ${i}`, clientIds: [clientOf(i)] }, token);
  });
  console.log(`seeded ${FILES} files (${(seededBytes / 1e9).toFixed(2)} GB) and ${TASKS} tasks of ${CLIENTS} clients in ${((Date.now() - seedStarted) / 1000).toFixed(0)} s`);
  // Text extraction, search vectors, insights and the read models work through the uploads
  // after they are answered: the export is measured once the services are idle, not while
  // that backlog competes with it.
  const settleStarted = Date.now();
  const idle = await servicesIdle();
  console.log(`services ${idle ? 'idle' : 'STILL BUSY (measured anyway)'} after ${((Date.now() - settleStarted) / 1000).toFixed(0)} s more`);

  const processes = { services: portal.servicesPid, gateway: portal.gatewayPid };
  const watch = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const baseline = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, rssMb(pid)]));
    const peak = { ...baseline };
    const timer = setInterval(() => {
      for (const [name, pid] of Object.entries(processes)) peak[name] = Math.max(peak[name]!, rssMb(pid));
    }, 100);
    const started = Date.now();
    try {
      return await work();
    } finally {
      clearInterval(timer);
      const memory = Object.keys(processes).map((name) => {
        const grown = peak[name]! - baseline[name]!;
        return `${name} RSS ${baseline[name]!.toFixed(0)} → peak ${peak[name]!.toFixed(0)} MB (+${grown.toFixed(0)} MB) ${grown < MEMORY_TARGET_MB ? 'ok' : 'OVER'}`;
      });
      console.log(`${label}: ${((Date.now() - started) / 1000).toFixed(1)} s; ${memory.join('; ')} (target < +${MEMORY_TARGET_MB} MB)`);
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
  // The archive goes to a file, and the import reads it from there: the benchmark itself holds none of it.
  const dir = await mkdtemp(join(tmpdir(), 'bench-firm-move-archive-'));
  const archivePath = join(dir, 'firm.tar');
  const download = await fetch(`${portal.url}/api/companies/${company.id}/exports/${ready.id}/download`, { headers: { authorization: `Bearer ${token}` } });
  await pipeline(Readable.fromWeb(download.body as import('node:stream/web').ReadableStream<Uint8Array>), createWriteStream(archivePath));
  const manifest = await archiveManifest(archivePath);
  const rows = Object.values(manifest.services).reduce((sum, part) => sum + Object.values(part.rows).reduce((a, b) => a + b, 0), 0);
  console.log(`archive: ${(ready.size / 1e9).toFixed(2)} GB, ${Object.keys(manifest.files).length} entries, ${rows} rows`);
  const archive = await openAsBlob(archivePath);

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
  await rm(dir, { recursive: true, force: true });
} finally {
  await portal.stop();
}

/** The archive's manifest: its last entry, whose JSON ends before tar's zero blocks. */
async function archiveManifest(path: string): Promise<{ files: Record<string, unknown>; services: Record<string, { rows: Record<string, number> }> }> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const tail = Buffer.alloc(Math.min(size, 8 * 1024 * 1024));
    await file.read(tail, 0, tail.length, size - tail.length);
    const text = tail.toString('utf8');
    const start = text.lastIndexOf('{\n  "format"');
    return JSON.parse(text.slice(start, text.indexOf('\0', start))) as Awaited<ReturnType<typeof archiveManifest>>;
  } finally {
    await file.close();
  }
}
