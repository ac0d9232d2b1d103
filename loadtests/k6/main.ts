// The Ledgerline load suite for k6: `k6 run loadtests/k6/main.ts` with BASE_URL,
// LOADTEST_ADMIN_USERNAME / _PASSWORD and LOADTEST_PROFILE (smoke | load | stress | soak);
// see docs/running/load-tests.md. The chart's load-test Job runs this folder's
// scripts (charts/portal/files/loadtests links here).
import { sleep } from 'k6';
import exec from 'k6/execution';
import { ONLY_SCENARIOS, PROFILE } from './config.ts';
import { setUp, tearDown, type Fixture } from './fixture.ts';
import { optionsFor, profileNamed, tagStressStep } from './profiles.ts';
import { SCENARIOS, askQuestion as ask } from './scenarios.ts';
import { summaryFiles } from './summary.ts';

const scenarios = ONLY_SCENARIOS.length ? SCENARIOS.filter((s) => ONLY_SCENARIOS.includes(s.name)) : SCENARIOS;
if (scenarios.length === 0) throw new Error(`LOADTEST_SCENARIOS names none of ${SCENARIOS.map((s) => s.name).join(', ')}`);
const asks = ONLY_SCENARIOS.length === 0 || ONLY_SCENARIOS.includes('chat');
const groups = scenarios.map((s) => s.name);
const profile = profileNamed(PROFILE);
if (!asks) delete profile.scenarios.chat;

/** Each scenario `weight` times per round, spread out (smooth weighted round robin). */
const round = (() => {
  const total = scenarios.reduce((sum, s) => sum + s.weight, 0);
  const current = scenarios.map(() => 0);
  return Array.from({ length: total }, () => {
    let best = 0;
    scenarios.forEach((s, i) => {
      current[i]! += s.weight;
      if (current[i]! > current[best]!) best = i;
    });
    current[best]! -= total;
    return scenarios[best]!;
  });
})();

export const options = optionsFor(profile, groups);

export function setup(): Fixture {
  return setUp();
}

export default function main(fixture: Fixture): void {
  tagStressStep();
  round[exec.scenario.iterationInTest % round.length]!.run(fixture);
  if (profile.thinkS) sleep(profile.thinkS);
}

export function askQuestion(fixture: Fixture): void {
  tagStressStep();
  ask(fixture);
}

export function teardown(fixture: Fixture): void {
  tearDown(fixture);
}

export function handleSummary(data: Parameters<typeof summaryFiles>[0]): Record<string, string> {
  return summaryFiles(data, groups);
}
