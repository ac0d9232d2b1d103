import type autocannon from 'autocannon';

/** autocannon reports p90 and p97.5; p95 is interpolated between them. */
export function percentile95(r: autocannon.Result): number {
  const l = r.latency as unknown as { p90: number; p97_5: number };
  return l.p90 + ((l.p97_5 - l.p90) * 5) / 7.5;
}

export function summarize(label: string, r: autocannon.Result): string {
  return `${label.padEnd(10)} p50 ${r.latency.p50.toFixed(2)} ms  p95 ~${percentile95(r).toFixed(2)} ms  ${r.requests.average.toFixed(1)} req/s  (${r.requests.total} requests)`;
}
