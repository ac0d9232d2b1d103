/**
 * What a load run records: every request's latency under its endpoint group, websocket
 * delivery times, checks, and per-second buckets for the report's charts.
 */
export interface Sample { group: string; ms: number; ok: boolean }

export interface GroupStats { count: number; failed: number; p50: number; p95: number; p99: number; max: number; ratePerS: number }

export interface Bucket { second: number; requests: number; failed: number; p95: number; vus: number }

export class Recorder {
  readonly startedAtMs = Date.now();
  readonly #samples: (Sample & { atMs: number })[] = [];
  #checksPassed = 0;
  #checksFailed = 0;
  readonly #failedChecks = new Map<string, number>();
  vus = 0;
  readonly #vusBySecond = new Map<number, number>();

  record(sample: Sample): void {
    const atMs = Date.now();
    this.#samples.push({ ...sample, atMs });
    this.#vusBySecond.set(Math.floor((atMs - this.startedAtMs) / 1000), this.vus);
  }

  check(name: string, ok: boolean): boolean {
    if (ok) this.#checksPassed++;
    else {
      this.#checksFailed++;
      this.#failedChecks.set(name, (this.#failedChecks.get(name) ?? 0) + 1);
    }
    return ok;
  }

  checks(): { passed: number; failed: number; rate: number; failedByName: Record<string, number> } {
    const total = this.#checksPassed + this.#checksFailed;
    return { passed: this.#checksPassed, failed: this.#checksFailed, rate: total ? this.#checksPassed / total : 1, failedByName: Object.fromEntries(this.#failedChecks) };
  }

  /** Statistics per group over [fromMs, toMs) (the whole run by default); HTTP groups and 'ws delivery' alike. */
  groups(fromMs = 0, toMs = Infinity): Record<string, GroupStats> {
    const byGroup = new Map<string, number[]>();
    const failed = new Map<string, number>();
    let first = Infinity;
    let last = 0;
    for (const s of this.#samples) {
      if (s.atMs < fromMs || s.atMs >= toMs) continue;
      first = Math.min(first, s.atMs);
      last = Math.max(last, s.atMs);
      let list = byGroup.get(s.group);
      if (!list) byGroup.set(s.group, (list = []));
      list.push(s.ms);
      if (!s.ok) failed.set(s.group, (failed.get(s.group) ?? 0) + 1);
    }
    const seconds = Math.max(1, (Math.min(toMs, last) - Math.max(fromMs, first === Infinity ? 0 : first)) / 1000);
    const stats: Record<string, GroupStats> = {};
    for (const [group, list] of [...byGroup].sort(([a], [b]) => a.localeCompare(b))) {
      list.sort((a, b) => a - b);
      stats[group] = {
        count: list.length, failed: failed.get(group) ?? 0,
        p50: quantile(list, 0.5), p95: quantile(list, 0.95), p99: quantile(list, 0.99), max: list.at(-1) ?? 0,
        ratePerS: list.length / seconds,
      };
    }
    return stats;
  }

  /** HTTP requests only (websocket deliveries are not requests). */
  httpTotals(fromMs = 0, toMs = Infinity): { requests: number; failed: number; ratePerS: number } {
    let requests = 0;
    let failed = 0;
    for (const [group, g] of Object.entries(this.groups(fromMs, toMs))) {
      if (group === WS_DELIVERY_GROUP) continue;
      requests += g.count;
      failed += g.failed;
    }
    const seconds = Math.max(1, (Math.min(toMs, Date.now()) - Math.max(fromMs, this.startedAtMs)) / 1000);
    return { requests, failed, ratePerS: requests / seconds };
  }

  timeline(): Bucket[] {
    const buckets = new Map<number, number[]>();
    const failed = new Map<number, number>();
    for (const s of this.#samples) {
      if (s.group === WS_DELIVERY_GROUP) continue;
      const second = Math.floor((s.atMs - this.startedAtMs) / 1000);
      let list = buckets.get(second);
      if (!list) buckets.set(second, (list = []));
      list.push(s.ms);
      if (!s.ok) failed.set(second, (failed.get(second) ?? 0) + 1);
    }
    const last = Math.max(-1, ...buckets.keys());
    return Array.from({ length: last + 1 }, (_, second) => {
      const list = (buckets.get(second) ?? []).sort((a, b) => a - b);
      return { second, requests: list.length, failed: failed.get(second) ?? 0, p95: quantile(list, 0.95), vus: this.#vusBySecond.get(second) ?? 0 };
    });
  }
}

export const WS_DELIVERY_GROUP = 'ws delivery';

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}
