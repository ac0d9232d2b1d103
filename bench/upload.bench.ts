// `npm run bench:upload`: one 1 GiB upload through the gateway into the files service,
// which runs in a process of its own (with identity and directory) so its memory can be
// watched: the resident set size (VmRSS) is sampled every 50 ms before and during the
// upload. Prints the growth (target < 100 MB) and the upload's throughput against a
// plain stream copy of the same file on the same disk (target ≥ 50 %), each upload and
// the copy taken three times (median). Runs on the
// embedded defaults unless POSTGRES_URL / S3_* are set (then the bytes go to MinIO).
// BENCH_UPLOAD_BYTES changes the size.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync } from 'node:fs';
import http from 'node:http';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { startBenchPortal } from './lib/bench-portal.ts';

const SIZE = Number(process.env.BENCH_UPLOAD_BYTES ?? 1024 * 1024 * 1024);
const MB = 1024 * 1024;
const FIRST_PORT = Number(process.env.BENCH_FIRST_PORT ?? 18_130);
const work = mkdtempSync(join(tmpdir(), 'bench-upload-'));
const tenant = `benchupload${Date.now().toString(36)}`;

/** Resident set size of a process, from /proc (bytes). */
async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

function sampler(pid: number, everyMs = 50) {
  let max = 0;
  let samples = 0;
  const timer = setInterval(() => {
    rss(pid).then((v) => { max = Math.max(max, v); samples++; }, () => undefined);
  }, everyMs);
  return { stop: () => { clearInterval(timer); return { max, samples }; } };
}

/** CPU seconds a process has used so far (user + system), from /proc. */
async function cpuSeconds(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/** A video-like file: an MP4 header (so the type check passes), then incompressible bytes. */
async function makeFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w');
  const block = randomBytes(4 * MB);
  block.write('\u0000\u0000\u0000\u0018ftypmp42', 0, 'latin1');
  for (let written = 0; written < size; written += block.length) {
    await handle.write(block, 0, Math.min(block.length, size - written));
    if (written === 0) randomBytes(12).copy(block, 0); // later blocks need no header
  }
  await handle.close();
}

const portal = await startBenchPortal({
  mode: 'split', firstPort: FIRST_PORT, dataPrefix: 'bench-upload-data-',
  extraEnv: { PORTAL_DATA_DIR: join(work, 'data'), UPLOAD_MAX_BYTES: String(SIZE + MB), GATEWAY_UPLOAD_MAX_BYTES: String(SIZE + 16 * MB) },
});
const call = async (path: string, body: unknown, token?: string) => {
  const r = await fetch(`${portal.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as Record<string, unknown>;
};

try {
  const source = join(work, 'source.mp4');
  await makeFile(source, SIZE);
  const platform = (await call('/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token as string;
  await call('/api/companies', { name: 'Bench Upload', shortName: tenant }, platform);
  // Services re-read the firm list at most every 250 ms: a firm made this instant may be missed.
  await new Promise((r) => setTimeout(r, 500));
  const clientId = (await call(`/api/${tenant}/clients`, { name: 'Bench Client', address: '1 Main Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: 'bench@example.com' }, platform)).id as number;
  await call(`/api/${tenant}/users`, { username: `${tenant}-admin`, password: 'bench-password', fullName: 'Bench Admin', roleId: 1 }, platform);
  const token = (await call(`/api/${tenant}/auth/login`, { username: `${tenant}-admin`, password: 'bench-password' })).token as string;

  /**
   * The multipart body streamed from disk with node:http (fields, the file, the closing
   * boundary), with its Content-Length: a browser's upload costs the server the same, and
   * this client leaves the machine's CPUs to what is measured.
   */
  const upload = async (path: string, name: string, direct = false) => {
    const boundary = `----bench${randomBytes(8).toString('hex')}`;
    const head = Buffer.from([
      `--${boundary}\r\nContent-Disposition: form-data; name="fileType"\r\n\r\nreport\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="clientId"\r\n\r\n${clientId}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: video/mp4\r\n\r\n`,
    ].join(''));
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const size = (await stat(path)).size;
    const target = new URL(direct ? `${portal.filesUrl}/api/files` : `${portal.url}/api/${tenant}/files`);
    return new Promise<{ files: { size: number }[] }>((resolve, reject) => {
      const req = http.request(target, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + size + tail.length },
      }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => { body += c; }).on('end', () => {
          if (res.statusCode !== 201) reject(new Error(`upload answered ${res.statusCode}: ${body}`));
          else resolve(JSON.parse(body) as { files: { size: number }[] });
        });
      });
      req.on('error', reject);
      pipeline(async function* () {
        yield head;
        yield* createReadStream(path, { highWaterMark: 256 * 1024 });
        yield tail;
      }, req).catch(reject);
    });
  };

  // Warm-up: a small upload loads every code path the large one takes.
  const small = join(work, 'small.mp4');
  await makeFile(small, 8 * MB);
  await upload(small, 'warm-up.mp4');
  await upload(small, 'warm-up.mp4', true);
  await new Promise((r) => setTimeout(r, 1000));
  const idle = sampler(portal.servicesPid!);
  await new Promise((r) => setTimeout(r, 1000));
  const baseline = idle.stop().max;

  /** Dirty pages of an earlier step are written out first, so no step pays for another. */
  const settle = () => promisify(execFile)('sync');
  const timed = async (run: () => Promise<unknown>) => { await settle(); const t = performance.now(); await run(); return (performance.now() - t) / 1000; };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

  // The same bytes copied on the same disk, written as durably as the object store writes
  // them (fsync before close): the speed the upload is held to (median of three). A copy
  // left in the page cache, and cp (which may not copy data at all), only for information.
  const copyTo = join(work, 'copy.mp4');
  const durable: number[] = [];
  for (let i = 0; i < 3; i++) {
    durable.push(await timed(() => pipeline(createReadStream(source), createWriteStream(copyTo, { flush: true }))));
    await rm(copyTo);
  }
  const cacheCopySeconds = await timed(() => pipeline(createReadStream(source), createWriteStream(copyTo)));
  await rm(copyTo);
  const cpSeconds = await timed(() => promisify(execFile)('cp', [source, copyTo]));
  await rm(copyTo);
  const copySpeed = SIZE / MB / median(durable);

  const measure = async (direct: boolean) => {
    await settle();
    const pids = [portal.servicesPid!, portal.gatewayPid!, process.pid];
    const cpuBefore = await Promise.all(pids.map(cpuSeconds));
    const during = sampler(portal.servicesPid!);
    const gatewayDuring = sampler(portal.gatewayPid!);
    const started = performance.now();
    const result = await upload(source, direct ? 'large video direct.mp4' : 'large video.mp4', direct);
    const seconds = (performance.now() - started) / 1000;
    const peak = during.stop().max;
    const gatewayPeak = gatewayDuring.stop().max;
    const cpu = (await Promise.all(pids.map(cpuSeconds))).map((v, i) => v - cpuBefore[i]!);
    if (result.files[0]!.size !== SIZE) throw new Error(`stored ${result.files[0]!.size} bytes of ${SIZE}`);
    return { seconds, speed: SIZE / MB / seconds, growth: (peak - baseline) / MB, peak, gatewayPeak, cpu };
  };
  // Three of each, alternating, like the copy's three: whichever upload runs first in a
  // fresh process pays for growing its heap and the kernel's page cache (about 1.5x the
  // CPU), which one run each would charge to one side only. Speed is the median run's;
  // memory growth the worst run's.
  const runs: Record<'gateway' | 'direct', Awaited<ReturnType<typeof measure>>[]> = { gateway: [], direct: [] };
  for (let i = 0; i < 3; i++) {
    runs.gateway.push(await measure(false));
    runs.direct.push(await measure(true));
  }
  const summary = (all: Awaited<ReturnType<typeof measure>>[]) => {
    const typical = [...all].sort((a, b) => a.speed - b.speed)[1]!;
    const worst = all.reduce((w, r) => (r.growth > w.growth ? r : w));
    return { ...typical, growth: worst.growth, peak: worst.peak, gatewayPeak: Math.max(...all.map((r) => r.gatewayPeak)), speeds: all.map((r) => r.speed) };
  };
  const viaGateway = summary(runs.gateway);
  const direct = summary(runs.direct);

  const storage = process.env.S3_ENDPOINT ? 'S3 (MinIO)' : 'local object store, fsync on completion';
  console.log(`durable stream copy of the file: ${copySpeed.toFixed(0)} MiB/s (median of ${durable.map((d) => (SIZE / MB / d).toFixed(0)).join(', ')}); page-cache copy ${(SIZE / MB / cacheCopySeconds).toFixed(0)} MiB/s; cp ${(SIZE / MB / cpSeconds).toFixed(0)} MiB/s`);
  for (const [label, r] of [['through the gateway', viaGateway], ['to the files service', direct]] as const) {
    console.log(`upload of ${(SIZE / MB).toFixed(0)} MiB ${label}: ${r.seconds.toFixed(2)} s, ${r.speed.toFixed(0)} MiB/s (median of ${r.speeds.map((v) => v.toFixed(0)).join(', ')}) = ${(100 * r.speed / copySpeed).toFixed(0)} % of the copy (target ≥ 50 %: ${r.speed / copySpeed >= 0.5 ? 'met' : 'MISSED'}); `
      + `files service RSS ${(baseline / MB).toFixed(0)} → peak ${(r.peak / MB).toFixed(0)} MiB, growth ${r.growth.toFixed(1)} MiB (target < 100 MB: ${r.growth < 100 ? 'met' : 'MISSED'}); `
      + `CPU s: services ${r.cpu[0]!.toFixed(1)}, gateway ${r.cpu[1]!.toFixed(1)}, sender ${r.cpu[2]!.toFixed(1)}${label === 'through the gateway' ? `; gateway RSS peak ${(r.gatewayPeak / MB).toFixed(0)} MiB` : ''}`);
  }
  console.log(`(storage: ${storage}; ${availableParallelism()} CPUs shared by sender, gateway and services; services and gateway in separate processes)`);
} finally {
  await portal.stop();
  await rm(work, { recursive: true, force: true });
}
