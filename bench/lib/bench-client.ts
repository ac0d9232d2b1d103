import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/** A JSON call through the portal's gateway that throws on anything but 2xx. */
export function jsonCaller(base: string) {
  return async <T = Record<string, unknown>>(method: string, path: string, body?: unknown, token?: string): Promise<T> => {
    const r = await fetch(`${base}${path}`, {
      method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  };
}

/** Runs `fn` over 0..n-1 with `width` in flight. */
export async function inParallel(n: number, width: number, fn: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => { while (next < n) await fn(next++); }));
}

/** A benchmark's measured figures against their targets, and the closing report. */
export class BenchRun {
  readonly #base: string;
  readonly #results: { label: string; value: number; target: number; unit: 'ms' | 's' | 'req/s' }[] = [];

  constructor(base: string) {
    this.#base = base;
  }

  /** GETs `paths` in turn at `rate` requests a second for `durationS` (pacedGets); a target records the p95. */
  async paced(label: string, token: string, paths: string[], target: number | null, options: { rate: number; durationS: number }): Promise<void> {
    const r = await pacedGets(this.#base, paths, { authorization: `Bearer ${token}` }, options);
    if (r.failures) throw new Error(`${label}: ${r.failures} failed or non-2xx answers`);
    const p95 = quantile(r.latencies, 0.95);
    console.log(`${label.padEnd(10)} p50 ${quantile(r.latencies, 0.5).toFixed(2)} ms  p95 ${p95.toFixed(2)} ms  max ${quantile(r.latencies, 1).toFixed(2)} ms  ${r.perSecond.toFixed(1)} req/s  (${r.latencies.length} requests)`);
    if (target !== null) this.record(label, p95, target);
  }

  /** A figure against its target: a p95 in milliseconds or a duration in seconds (below it), or a throughput (at least it). */
  record(label: string, value: number, target: number, unit: 'ms' | 's' | 'req/s' = 'ms'): void {
    this.#results.push({ label, value, target, unit });
  }

  report(what: string): void {
    console.log(`\n${what}; ${availableParallelism()} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const r of this.#results) {
      const throughput = r.unit === 'req/s';
      const met = throughput ? r.value >= r.target : r.value < r.target;
      console.log(`${met ? 'PASS' : 'MISS'} ${r.label}: ${r.unit === 'ms' ? 'p95 ' : ''}${r.value.toFixed(2)} ${r.unit} (target ${throughput ? '>=' : '<'} ${r.target} ${r.unit})`);
    }
  }
}

export interface PacedResult {
  /** Milliseconds from each request's scheduled instant to its whole answer, sorted. */
  latencies: number[];
  failures: number;
  /** Requests answered per second over the run. */
  perSecond: number;
}

/**
 * GETs `paths` in turn at evenly spaced instants, `rate` a second for `durationS` seconds:
 * an open model, as `rate` people each asking now and then would load the product. A slow
 * answer does not hold back the next request, and latency counts from the instant a request
 * was due, so a stall is measured rather than hidden. (autocannon's `overallRate` spreads the
 * rate over its connections, which then send together: 20 requests at once every second,
 * which measures a burst's queue, not 20 requests a second.)
 */
export async function pacedGets(base: string, paths: readonly string[], headers: Record<string, string>, options: { rate: number; durationS: number }): Promise<PacedResult> {
  const total = Math.max(1, Math.round(options.rate * options.durationS));
  const interval = 1000 / options.rate;
  const start = performance.now();
  let failures = 0;
  const answers: Promise<number>[] = [];
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    answers.push((async () => {
      try {
        const r = await fetch(`${base}${paths[i % paths.length]}`, { headers });
        await r.arrayBuffer();
        if (!r.ok) failures++;
      } catch {
        failures++;
      }
      return performance.now() - due;
    })());
  }
  const latencies = (await Promise.all(answers)).sort((a, b) => a - b);
  return { latencies, failures, perSecond: total / ((performance.now() - start) / 1000) };
}

/** The q-quantile (0..1) of sorted values. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}
