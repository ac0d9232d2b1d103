import { readFileSync } from 'node:fs';

export interface ResourceSample { second: number; rssMb: number | null; processCpuPct: number | null; eventLoopP99Ms: number | null; machineCpuPct: number | null }

const SAMPLE_EVERY_MS = 5000;

/**
 * What ran out: the gateway process's memory, CPU and event-loop lag from its Prometheus
 * /metrics (in the all-in-one default, that process is the whole product), and the
 * machine's CPU when the target runs on this machine.
 */
export function watchResources(baseUrl: string, startedAtMs: number): { samples: ResourceSample[]; stop(): void } {
  const samples: ResourceSample[] = [];
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(baseUrl).hostname);
  let lastProcessCpu: { atMs: number; seconds: number } | null = null;
  let lastMachine = local ? machineCpu() : null;
  const timer = setInterval(() => {
    void (async () => {
      const metrics = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(3000) }).then((r) => (r.ok ? r.text() : ''), () => '');
      const now = Date.now();
      const cpuSeconds = metricValue(metrics, 'process_cpu_seconds_total');
      let processCpuPct: number | null = null;
      if (cpuSeconds !== null && lastProcessCpu) processCpuPct = ((cpuSeconds - lastProcessCpu.seconds) * 100_000) / (now - lastProcessCpu.atMs);
      if (cpuSeconds !== null) lastProcessCpu = { atMs: now, seconds: cpuSeconds };
      let machineCpuPct: number | null = null;
      if (lastMachine) {
        const current = machineCpu();
        machineCpuPct = (100 * (current.busy - lastMachine.busy)) / Math.max(1, current.total - lastMachine.total);
        lastMachine = current;
      }
      const rss = metricValue(metrics, 'process_resident_memory_bytes');
      const lag = metricValue(metrics, 'nodejs_eventloop_lag_p99_seconds');
      samples.push({
        second: Math.round((now - startedAtMs) / 1000), rssMb: rss === null ? null : rss / 1024 / 1024,
        processCpuPct, eventLoopP99Ms: lag === null ? null : lag * 1000, machineCpuPct,
      });
    })();
  }, SAMPLE_EVERY_MS);
  return { samples, stop: () => clearInterval(timer) };
}

function metricValue(text: string, name: string): number | null {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.eE+-]+)`, 'm').exec(text);
  return m ? Number(m[1]) : null;
}

function machineCpu(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  return { busy: total - idle, total };
}
