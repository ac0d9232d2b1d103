// The end of a run: k6's summary data judged into a verdict (every threshold as k6 judged
// it, each group's figures, and for stress the steps and the knee), written as JSON and
// printed as text.
import { BASE_URL, OUT_DIR, PROFILE } from './config.ts';
import { WS_DELIVERY_METRIC, groupTag, p95Limit } from './groups.ts';
import { STRESS_RATES, STRESS_STEP_JUDGED_S, isStress } from './profiles.ts';

interface MetricData {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
interface SummaryData { metrics: Record<string, MetricData>; state: { testRunDurationMs: number } }

interface GroupFigures { group: string; requests: number; p50: number; p95: number; p99: number; max: number; limit: number }
interface StepFigures { step: number; iterationsPerS: number; requests: number; requestsPerS: number; held: boolean; broken: string[] }

export interface Verdict {
  profile: string;
  baseUrl: string;
  durationS: number;
  requests: number;
  failedRate: number;
  checkRate: number;
  thresholds: { metric: string; threshold: string; ok: boolean; value: number | null }[];
  groups: GroupFigures[];
  wsDeliveryP95: number | null;
  steps?: StepFigures[];
  /** Stress: the last step whose every threshold held (null when the first already broke them). */
  knee?: StepFigures | null;
  held: boolean;
}

/** The figure a threshold expression compares (`p(95)<300` → the metric's p(95)). */
function judgedValue(m: MetricData, threshold: string): number | null {
  const stat = /^\s*(p\([\d.]+\)|rate|count|avg|min|max|med|value)/.exec(threshold)?.[1];
  return stat === undefined ? null : m.values[stat] ?? null;
}

export function verdictOf(data: SummaryData, groups: readonly string[]): Verdict {
  const metric = (name: string): MetricData | undefined => data.metrics[name];
  const thresholds = Object.entries(data.metrics).flatMap(([name, m]) => Object.entries(m.thresholds ?? {}).map(([threshold, t]) => ({ metric: name, threshold, ok: t.ok, value: judgedValue(m, threshold) })))
    .sort((a, b) => a.metric.localeCompare(b.metric) || a.threshold.localeCompare(b.threshold));
  const verdict: Verdict = {
    profile: PROFILE, baseUrl: BASE_URL, durationS: data.state.testRunDurationMs / 1000,
    requests: metric('http_reqs')?.values.count ?? 0, failedRate: metric('http_req_failed')?.values.rate ?? 0, checkRate: metric('checks')?.values.rate ?? 0,
    thresholds, groups: [], wsDeliveryP95: metric(WS_DELIVERY_METRIC)?.values['p(95)'] ?? null, held: thresholds.every((t) => t.ok),
  };
  // Stress: each group's figures at the knee (what the deployment carries within its limits).
  let atStep = '';
  if (isStress) {
    const steps = STRESS_RATES.map((rate, step): StepFigures => {
      const ofStep = thresholds.filter((t) => new RegExp(`[{,]step:${step}}`).test(t.metric));
      const requests = data.metrics[`http_reqs{step:${step}}`]?.values.count ?? 0;
      return { step, iterationsPerS: rate, requests, requestsPerS: requests / STRESS_STEP_JUDGED_S, held: ofStep.every((t) => t.ok), broken: ofStep.filter((t) => !t.ok).map((t) => `${t.metric} ${t.threshold}`) };
    }).filter((s) => s.requests > 0);
    const firstBroken = steps.findIndex((s) => !s.held);
    verdict.steps = steps;
    verdict.knee = firstBroken === -1 ? steps.at(-1) ?? null : steps[firstBroken - 1] ?? null;
    // A stress run is judged by its knee: the step that broke is what it looked for.
    verdict.held = verdict.knee !== null;
    if (verdict.knee) atStep = `,step:${verdict.knee.step}`;
    verdict.wsDeliveryP95 = metric(`${WS_DELIVERY_METRIC}{step:${verdict.knee?.step}}`)?.values['p(95)'] ?? null;
  }
  verdict.groups = groups.map((group) => {
    const values = metric(`http_req_duration{group:${groupTag(group)}${atStep}}`)?.values ?? {};
    return { group, requests: values.count ?? 0, p50: values.med ?? 0, p95: values['p(95)'] ?? 0, p99: values['p(99)'] ?? 0, max: values.max ?? 0, limit: p95Limit(group) };
  });
  return verdict;
}

const ms = (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`;
const pad = (s: string | number, n: number) => String(s).padEnd(n);

export function summaryText(v: Verdict): string {
  const lines = [
    '', `Ledgerline load test "${v.profile}" against ${v.baseUrl}: ${v.durationS.toFixed(0)} s, ${v.requests} requests (${(v.requests / Math.max(1, v.durationS)).toFixed(1)}/s), failed ${(v.failedRate * 100).toFixed(2)} %, checks ${(v.checkRate * 100).toFixed(2)} % held`,
    '', ...(v.knee ? [`  each group at the knee (step ${v.knee.step}):`] : []), `  ${pad('group', 14)}${pad('requests', 10)}${pad('p50', 10)}${pad('p95', 10)}${pad('p99', 10)}${pad('max', 10)}p95 limit`,
    ...v.groups.map((g) => `  ${pad(g.group, 14)}${pad(g.requests, 10)}${pad(ms(g.p50), 10)}${pad(ms(g.p95), 10)}${pad(ms(g.p99), 10)}${pad(ms(g.max), 10)}${ms(g.limit)}`),
  ];
  if (v.wsDeliveryP95 !== null) lines.push(`  socket delivery p95 ${ms(v.wsDeliveryP95)}`);
  if (v.steps) {
    lines.push('', '  stress steps (each judged on its own samples):');
    for (const s of v.steps) lines.push(`    step ${pad(s.step, 3)}${pad(`${s.iterationsPerS} it/s`, 10)}${pad(`${s.requestsPerS.toFixed(1)} req/s`, 14)}${s.held ? 'held' : `broke: ${s.broken.join(', ')}`}`);
    lines.push(v.knee ? `  knee: step ${v.knee.step} at ${v.knee.iterationsPerS} iterations/s (${v.knee.requestsPerS.toFixed(1)} req/s), the last step that held` : '  knee: none, the first step already broke the thresholds');
  } else {
    // Every threshold as k6 judged it, with the figure it compared.
    lines.push('', '  thresholds:', ...v.thresholds.map((t) => `    ${t.ok ? '✓' : '✗'} ${t.metric} ${t.threshold}${t.value === null ? '' : ` (${Number(t.value.toFixed(4))})`}`));
    const broken = v.thresholds.filter((t) => !t.ok);
    lines.push('', broken.length ? `  thresholds broken: ${broken.map((t) => `${t.metric} ${t.threshold}`).join('; ')}` : `  every threshold held (${v.thresholds.length})`);
  }
  return `${lines.join('\n')}\n`;
}

/** handleSummary's answer: the verdict printed and written beside k6's own summary data. */
export function summaryFiles(data: SummaryData, groups: readonly string[]): Record<string, string> {
  const verdict = verdictOf(data, groups);
  return {
    stdout: summaryText(verdict),
    [`${OUT_DIR}/summary.json`]: JSON.stringify({ verdict, k6: data }, null, 2),
  };
}
