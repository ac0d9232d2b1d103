import autocannon from 'autocannon';
import { availableParallelism, loadavg } from 'node:os';
import { percentile95, summarize } from './bench-report.ts';

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
  readonly #results: { label: string; p95: number; target: number }[] = [];

  constructor(base: string) {
    this.#base = base;
  }

  /** GETs `paths` in turn at `rate` requests a second for `durationS`; a target records the p95. */
  async paced(label: string, token: string, paths: string[], target: number | null, options: { rate: number; durationS: number }): Promise<void> {
    let n = 0;
    const r = await autocannon({
      url: `${this.#base}${paths[0]}`, connections: options.rate, overallRate: options.rate, duration: options.durationS, headers: { authorization: `Bearer ${token}` },
      requests: [{ setupRequest: (req) => ({ ...req, path: paths[n++ % paths.length] }) }],
    });
    if (r.non2xx) throw new Error(`${label}: ${r.non2xx} non-2xx answers`);
    console.log(summarize(label, r));
    if (target !== null) this.record(label, percentile95(r), target);
  }

  record(label: string, p95: number, target: number): void {
    this.#results.push({ label, p95, target });
  }

  report(what: string): void {
    console.log(`\n${what}; ${availableParallelism()} CPUs, load ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
    for (const r of this.#results) console.log(`${r.p95 < r.target ? 'PASS' : 'MISS'} ${r.label}: p95 ${r.p95.toFixed(2)} ms (target < ${r.target} ms)`);
  }
}
