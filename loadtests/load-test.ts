import { join } from 'node:path';
import { SIZES, setUp, tearDown, type Target } from './fixture.ts';
import { Recorder } from './lib/metrics.ts';
import { summaryText, writeReport, type Report } from './lib/report.ts';
import { watchResources } from './lib/resources.ts';
import { drive } from './lib/runner.ts';
import { judge } from './lib/thresholds.ts';
import { profileNamed } from './profiles.ts';
import { SCENARIOS } from './scenarios/index.ts';

export interface LoadTestOptions {
  target: Target;
  profile: string;
  size: string;
  /** Reuse this load-test firm (created when missing) instead of a new one. */
  tenant?: string;
  keepFirm: boolean;
  /** Only the scenarios whose names are listed (all by default). */
  scenarioNames?: string[];
  outDir: string;
}

/** Set up the firm, drive the profile, tear down, write the reports; true when every threshold held. */
export async function runLoadTest(options: LoadTestOptions): Promise<boolean> {
  const profile = profileNamed(options.profile);
  const size = SIZES[options.size];
  if (!size) throw new Error(`Unknown size "${options.size}": ${Object.keys(SIZES).join(', ')}`);
  const scenarios = options.scenarioNames ? SCENARIOS.filter((s) => options.scenarioNames!.includes(s.name)) : SCENARIOS;
  if (scenarios.length === 0) throw new Error(`No scenario named ${options.scenarioNames?.join(', ')}; known: ${SCENARIOS.map((s) => s.name).join(', ')}`);

  console.log(`load test "${profile.name}" (${profile.description}), size ${options.size}, against ${options.target.baseUrl}`);
  const fixture = await setUp(options.target, size, options.tenant);
  console.log(`firm ${fixture.tenant}: ${fixture.users.length} users, ${fixture.clientIds.length} clients, ${fixture.reportTypeIds.length} report types, ${fixture.fileIds.length} files`);
  const recorder = new Recorder();
  const resources = watchResources(options.target.baseUrl, recorder.startedAtMs);
  let report: Report;
  try {
    const outcome = await drive({ baseUrl: options.target.baseUrl, profile, scenarios, fixture, recorder });
    resources.stop();
    const knee = profile.stepwise ? outcome.steps.filter((s) => s.held).at(-1) ?? null : null;
    report = {
      profile: profile.name, description: profile.description, baseUrl: options.target.baseUrl,
      startedAt: new Date(recorder.startedAtMs).toISOString(), durationS: (Date.now() - recorder.startedAtMs) / 1000,
      totals: recorder.httpTotals(), checks: recorder.checks(), groups: recorder.groups(),
      // A stress run is judged by its knee; its whole-run thresholds are broken by design.
      thresholds: judge(recorder, scenarios, profile.stepwise && knee ? { fromMs: knee.fromMs, toMs: knee.toMs, requireEveryGroup: false } : { requireEveryGroup: profile.requireEveryGroup }),
      steps: outcome.steps, knee, timeline: recorder.timeline(), resources: resources.samples,
    };
  } finally {
    resources.stop();
    await tearDown(options.target, fixture, options.keepFirm);
  }
  const files = writeReport(report, options.outDir);
  console.log(summaryText(report));
  const held = report.thresholds.every((t) => t.ok);
  console.log(`\nreport: ${files.html} (chart) and ${files.json}`);
  console.log(`load test "${profile.name}": ${held ? 'every threshold held' : 'thresholds broken'}`);
  return held;
}

export const defaultOutDir = (profile: string) => join(import.meta.dirname, 'results', `${profile}-${new Date().toISOString().replace(/[:.]/g, '-')}`);
