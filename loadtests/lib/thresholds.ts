import type { Scenario } from './scenario.ts';
import type { Recorder } from './metrics.ts';

export interface ThresholdResult { name: string; limit: string; actual: string; ok: boolean }

/** Failed requests below 1 %. */
export const MAX_FAILED_RATE = 0.01;
/** Checks that hold: at least 99 %. */
export const MIN_CHECK_RATE = 0.99;

/** p95 limit per endpoint group: the strictest any scenario sets for it. */
export function groupLimits(scenarios: readonly Scenario[]): Map<string, number> {
  const limits = new Map<string, number>();
  for (const s of scenarios) for (const [group, { p95Ms }] of Object.entries(s.groups)) limits.set(group, Math.min(p95Ms, limits.get(group) ?? Infinity));
  return limits;
}

/** The thresholds judged over [fromMs, toMs): failed requests, checks, and p95 per group (websocket delivery included). */
export function judge(recorder: Recorder, scenarios: readonly Scenario[], options: { fromMs?: number; toMs?: number; requireEveryGroup: boolean }): ThresholdResult[] {
  const totals = recorder.httpTotals(options.fromMs, options.toMs);
  const failedRate = totals.requests ? totals.failed / totals.requests : 0;
  const checks = recorder.checks();
  const results: ThresholdResult[] = [
    { name: 'http_req_failed', limit: `< ${MAX_FAILED_RATE * 100} %`, actual: `${(failedRate * 100).toFixed(2)} % of ${totals.requests}`, ok: totals.requests > 0 && failedRate < MAX_FAILED_RATE },
  ];
  if (options.fromMs === undefined) {
    results.push({ name: 'checks', limit: `>= ${MIN_CHECK_RATE * 100} %`, actual: `${(checks.rate * 100).toFixed(2)} % of ${checks.passed + checks.failed}`, ok: checks.rate >= MIN_CHECK_RATE });
  }
  const groups = recorder.groups(options.fromMs, options.toMs);
  for (const [group, limit] of groupLimits(scenarios)) {
    const g = groups[group];
    if (!g) {
      if (options.requireEveryGroup) results.push({ name: `p95 ${group}`, limit: `< ${limit} ms`, actual: 'never exercised', ok: false });
      continue;
    }
    results.push({ name: `p95 ${group}`, limit: `< ${limit} ms`, actual: `${g.p95.toFixed(1)} ms`, ok: g.p95 < limit });
  }
  return results;
}
