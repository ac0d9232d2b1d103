import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bucket, GroupStats } from './metrics.ts';
import type { ResourceSample } from './resources.ts';
import type { StepResult } from './runner.ts';
import type { ThresholdResult } from './thresholds.ts';

export interface Report {
  profile: string;
  description: string;
  baseUrl: string;
  startedAt: string;
  durationS: number;
  totals: { requests: number; failed: number; ratePerS: number };
  checks: { passed: number; failed: number; rate: number; failedByName: Record<string, number> };
  groups: Record<string, GroupStats>;
  thresholds: ThresholdResult[];
  /** Stress only: every step, and the last one that held (null when even the first broke). */
  steps: StepResult[];
  knee: StepResult | null;
  timeline: Bucket[];
  resources: ResourceSample[];
}

/** The end-of-test summary on the console: groups, thresholds, the knee. */
export function summaryText(r: Report): string {
  const lines = [
    '',
    `load test "${r.profile}" against ${r.baseUrl}: ${r.durationS.toFixed(0)} s, ${r.totals.requests} requests, ${r.totals.ratePerS.toFixed(1)} req/s, ${r.totals.failed} failed`,
    `checks ${(r.checks.rate * 100).toFixed(2)} % held (${r.checks.passed} of ${r.checks.passed + r.checks.failed})`,
    ...Object.entries(r.checks.failedByName).map(([name, n]) => `  check not held ${n}x: ${name}`),
    '',
    `${'group'.padEnd(16)} ${'count'.padStart(7)} ${'failed'.padStart(7)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(9)} ${'p95 ms'.padStart(9)} ${'p99 ms'.padStart(9)} ${'max ms'.padStart(9)}`,
    ...Object.entries(r.groups).map(([group, g]) => `${group.padEnd(16)} ${String(g.count).padStart(7)} ${String(g.failed).padStart(7)} ${g.ratePerS.toFixed(1).padStart(8)} ${g.p50.toFixed(1).padStart(9)} ${g.p95.toFixed(1).padStart(9)} ${g.p99.toFixed(1).padStart(9)} ${g.max.toFixed(1).padStart(9)}`),
    '',
    ...r.thresholds.map((t) => `${t.ok ? 'ok    ' : 'BROKEN'} ${t.name.padEnd(24)} ${t.actual.padEnd(22)} limit ${t.limit}`),
  ];
  const rss = r.resources.map((s) => s.rssMb).filter((v): v is number => v !== null);
  if (rss.length > 1) {
    // What a soak watches: memory that keeps growing under flat traffic is a leak.
    lines.push('', `gateway process memory (RSS): ${rss[0]!.toFixed(0)} MB at the start, ${rss.at(-1)!.toFixed(0)} MB at the end, ${Math.max(...rss).toFixed(0)} MB at most`);
  }
  if (r.profile === 'stress') {
    lines.push('', r.knee
      ? `knee: ${r.knee.vus} VUs, ${r.knee.ratePerS.toFixed(1)} req/s with every threshold held (${r.steps.length > r.steps.indexOf(r.knee) + 1 ? `next step ${r.steps.at(-1)!.vus} VUs broke them` : 'the last step; the ramp ended before they broke'})`
      : 'knee: below the first step (it already broke the thresholds)');
  }
  return lines.join('\n');
}

export function writeReport(r: Report, dir: string): { json: string; html: string } {
  mkdirSync(dir, { recursive: true });
  const json = join(dir, 'report.json');
  const html = join(dir, 'report.html');
  writeFileSync(json, JSON.stringify(r, null, 2));
  writeFileSync(html, renderHtml(r));
  return { json, html };
}

const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A self-contained page (inline SVG and CSS, no scripts from anywhere). */
function renderHtml(r: Report): string {
  const t = r.timeline;
  const charts = [
    chart('Throughput (requests/s) and failures/s', t.map((b) => b.second), [
      { label: 'requests/s', color: '#2563eb', values: t.map((b) => b.requests) },
      { label: 'failed/s', color: '#dc2626', values: t.map((b) => b.failed) },
    ]),
    chart('Latency p95 per second (ms)', t.map((b) => b.second), [{ label: 'p95 ms', color: '#7c3aed', values: t.map((b) => b.p95) }]),
    chart('Virtual users', t.map((b) => b.second), [{ label: 'VUs', color: '#059669', values: t.map((b) => b.vus) }]),
  ];
  const res = r.resources;
  if (res.some((s) => s.rssMb !== null || s.machineCpuPct !== null)) {
    charts.push(chart('Resources (gateway process; machine when local)', res.map((s) => s.second), [
      { label: 'process RSS MB', color: '#0891b2', values: res.map((s) => s.rssMb ?? 0) },
      { label: 'process CPU %', color: '#ea580c', values: res.map((s) => s.processCpuPct ?? 0) },
      { label: 'machine CPU %', color: '#65a30d', values: res.map((s) => s.machineCpuPct ?? 0) },
      { label: 'event-loop p99 ms', color: '#db2777', values: res.map((s) => s.eventLoopP99Ms ?? 0) },
    ]));
  }
  const rows = Object.entries(r.groups).map(([g, s]) => `<tr><td>${escapeHtml(g)}</td><td>${s.count}</td><td>${s.failed}</td><td>${s.ratePerS.toFixed(1)}</td><td>${s.p50.toFixed(1)}</td><td>${s.p95.toFixed(1)}</td><td>${s.p99.toFixed(1)}</td><td>${s.max.toFixed(1)}</td></tr>`).join('');
  const thresholds = r.thresholds.map((x) => `<tr class="${x.ok ? 'ok' : 'bad'}"><td>${x.ok ? 'ok' : 'BROKEN'}</td><td>${escapeHtml(x.name)}</td><td>${escapeHtml(x.actual)}</td><td>${escapeHtml(x.limit)}</td></tr>`).join('');
  const steps = r.steps.map((s) => `<tr class="${s.held ? 'ok' : 'bad'}"><td>${s.vus}</td><td>${s.ratePerS.toFixed(1)}</td><td>${s.held ? 'held' : escapeHtml(s.thresholds.filter((x) => !x.ok).map((x) => `${x.name} ${x.actual}`).join(', '))}</td></tr>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Load test ${escapeHtml(r.profile)} · ${escapeHtml(r.startedAt)}</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#111}table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ddd;padding:4px 8px;text-align:right}td:first-child,th:first-child,td:nth-child(2){text-align:left}.bad{background:#fee2e2}.ok td:first-child{color:#166534}svg{display:block;margin:8px 0 24px}h2{margin-top:28px}</style></head><body>
<h1>Load test: ${escapeHtml(r.profile)}</h1>
<p>${escapeHtml(r.description)}<br>Target ${escapeHtml(r.baseUrl)}, started ${escapeHtml(r.startedAt)}, ${r.durationS.toFixed(0)} s; ${r.totals.requests} requests (${r.totals.ratePerS.toFixed(1)}/s), ${r.totals.failed} failed; checks ${(r.checks.rate * 100).toFixed(2)} % held.</p>
${r.profile === 'stress' ? `<h2>Knee</h2><p>${r.knee ? `${r.knee.vus} VUs at ${r.knee.ratePerS.toFixed(1)} req/s, every threshold held.` : 'The first step already broke the thresholds.'}</p><table><tr><th>VUs</th><th>req/s</th><th>thresholds</th></tr>${steps}</table>` : ''}
<h2>Thresholds</h2><table><tr><th></th><th>threshold</th><th>measured</th><th>limit</th></tr>${thresholds}</table>
<h2>Endpoint groups</h2><table><tr><th>group</th><th>count</th><th>failed</th><th>req/s</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>max ms</th></tr>${rows}</table>
<h2>Over time</h2>${charts.join('\n')}
</body></html>`;
}

interface Series { label: string; color: string; values: number[] }

function chart(title: string, xs: number[], series: Series[]): string {
  const width = 900;
  const height = 220;
  const pad = { left: 50, right: 10, top: 24, bottom: 28 };
  const maxX = Math.max(1, ...xs);
  const maxY = Math.max(1, ...series.flatMap((s) => s.values)) * 1.1;
  const x = (v: number) => pad.left + (v / maxX) * (width - pad.left - pad.right);
  const y = (v: number) => height - pad.bottom - (v / maxY) * (height - pad.top - pad.bottom);
  const lines = series.map((s) => `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${s.values.map((v, i) => `${x(xs[i]!).toFixed(1)},${y(v).toFixed(1)}`).join(' ')}"/>`).join('');
  const legend = series.map((s, i) => `<text x="${pad.left + 10 + i * 170}" y="16" fill="${s.color}">■ ${escapeHtml(s.label)}</text>`).join('');
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => `<text x="${pad.left - 6}" y="${y(maxY * f) + 4}" text-anchor="end" font-size="11">${(maxY * f).toFixed(maxY < 10 ? 1 : 0)}</text><line x1="${pad.left}" x2="${width - pad.right}" y1="${y(maxY * f)}" y2="${y(maxY * f)}" stroke="#eee"/>`).join('');
  return `<h3>${escapeHtml(title)}</h3><svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}">${ticks}${lines}${legend}<text x="${width / 2}" y="${height - 6}" text-anchor="middle" font-size="11">seconds since start (0–${maxX})</text></svg>`;
}
