// The profiles as k6 scenarios, chosen by LOADTEST_PROFILE, and the thresholds each is
// judged by. Every profile runs two scenarios: `main` (the weighted round of what people
// do) and `chat` (questions at the fixed rate the product's AI budget allows).
import exec from 'k6/execution';
import type { Options, Scenario as K6Scenario, Threshold } from 'k6/options';
import { CHAT_ASKS_PER_MINUTE, PROFILE, SCALE, SMOKE_SECONDS, SOAK_HOURS, STRESS_STEP_SECONDS } from './config.ts';
import { MAX_FAILED_RATE, MIN_CHECK_RATE, WS_DELIVERY_METRIC, WS_DELIVERY_P95_MS, groupTag, p95Limit } from './groups.ts';

export interface Profile {
  description: string;
  /** The pause after each iteration of `main` (people read what they asked for), in seconds. */
  thinkS: number;
  scenarios: Record<string, K6Scenario>;
}

const scaled = (n: number): number => Math.max(1, Math.round(n * SCALE));
const chatAt = (duration: string): K6Scenario => ({
  executor: 'constant-arrival-rate', exec: 'askQuestion', rate: CHAT_ASKS_PER_MINUTE, timeUnit: '1m', duration, preAllocatedVUs: 2, maxVUs: 10,
});

/** Stress: arrival-rate steps (iterations/s of `main`), each reached by a short ramp, then held. */
export const STRESS_RATES = [2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128].map(scaled);
const STRESS_RAMP_S = 2;
const stressStepS = STRESS_RAMP_S + STRESS_STEP_SECONDS;
/** A step is judged from a fifth into its hold: its first seconds still carry the previous step's queue. */
const STRESS_SETTLE_S = STRESS_RAMP_S + STRESS_STEP_SECONDS / 5;

const PROFILES: Record<string, () => Profile> = {
  smoke: () => ({
    description: `2 VUs for ${SMOKE_SECONDS} s: every scenario works and answers in time`,
    thinkS: 0.1,
    scenarios: { main: { executor: 'constant-vus', vus: 2, duration: `${SMOKE_SECONDS}s` }, chat: chatAt(`${SMOKE_SECONDS}s`) },
  }),
  // A firm's working day compressed into 12 minutes: a morning ramp, a mid-morning peak,
  // the afternoon, the evening tail.
  load: () => ({
    description: "a firm's working day in 12 minutes (ramp, peak, afternoon, tail)",
    thinkS: 1,
    scenarios: {
      main: {
        executor: 'ramping-vus', startVUs: 0, gracefulRampDown: '30s',
        stages: [[60, 10], [120, 25], [120, 25], [240, 15], [120, 20], [60, 3]].map(([s, vus]) => ({ duration: `${s}s`, target: scaled(vus!) })),
      },
      chat: chatAt('12m'),
    },
  }),
  // Rising arrival rate without think time until a step breaks its thresholds (they abort
  // the run): the last step that held is the knee.
  stress: () => ({
    description: `arrival rate in ${STRESS_STEP_SECONDS}-s steps of ${STRESS_RATES.join(', ')} iterations/s until a step breaks the thresholds; names the knee`,
    thinkS: 0,
    scenarios: {
      main: {
        executor: 'ramping-arrival-rate', startRate: STRESS_RATES[0], timeUnit: '1s', preAllocatedVUs: scaled(20), maxVUs: scaled(400),
        stages: STRESS_RATES.flatMap((rate) => [{ duration: `${STRESS_RAMP_S}s`, target: rate }, { duration: `${STRESS_STEP_SECONDS}s`, target: rate }]),
      },
      chat: chatAt(`${STRESS_RATES.length * stressStepS}s`),
    },
  }),
  soak: () => ({
    description: `a steady working load for ${SOAK_HOURS} h, watching for slow leaks`,
    thinkS: 1,
    scenarios: {
      main: { executor: 'ramping-vus', startVUs: 0, stages: [{ duration: '60s', target: scaled(15) }, { duration: `${SOAK_HOURS * 3600}s`, target: scaled(15) }] },
      chat: chatAt(`${SOAK_HOURS * 3600 + 60}s`),
    },
  }),
};

export function profileNamed(name: string): Profile {
  const profile = PROFILES[name];
  if (!profile) throw new Error(`Unknown LOADTEST_PROFILE "${name}": ${Object.keys(PROFILES).join(', ')}`);
  return profile();
}

export const isStress = PROFILE === 'stress';

/**
 * Stress: tags what this VU measures from here on with the step it falls in (`settling`
 * while a step ramps up and settles), so each step is judged on its own samples.
 */
export function tagStressStep(): void {
  if (!isStress) return;
  const elapsedS = (Date.now() - exec.scenario.startTime) / 1000;
  const step = Math.min(STRESS_RATES.length - 1, Math.floor(elapsedS / stressStepS));
  exec.vu.metrics.tags.step = elapsedS - step * stressStepS >= STRESS_SETTLE_S ? String(step) : 'settling';
}

const p95 = (ms: number) => `p(95)<${ms}`;

/**
 * What a run is judged by. Every profile: failed requests below 1 %, checks at 99 % or
 * more, and each group's p95 (socket delivery included). Smoke to stress, each group must
 * have run. Stress judges each step on its own and aborts at the first step that breaks.
 */
export function thresholdsFor(groups: readonly string[]): Record<string, Threshold[]> {
  const sockets = groups.includes('realtime') || groups.includes('messaging');
  if (!isStress) {
    const thresholds: Record<string, Threshold[]> = { http_req_failed: [`rate<${MAX_FAILED_RATE}`], checks: [`rate>=${MIN_CHECK_RATE}`] };
    for (const group of groups) {
      thresholds[`http_req_duration{group:${groupTag(group)}}`] = [p95(p95Limit(group))];
      thresholds[`http_reqs{group:${groupTag(group)}}`] = ['count>0'];
    }
    if (sockets) thresholds[WS_DELIVERY_METRIC] = [p95(WS_DELIVERY_P95_MS)];
    return thresholds;
  }
  const thresholds: Record<string, Threshold[]> = {};
  STRESS_RATES.forEach((_, step) => {
    // A step may stop the run only once it is over, judged on all its samples rather than
    // its first few (the delay counts from the run's start, setup included: a little later).
    const aborting = (threshold: string) => ({ threshold, abortOnFail: true, delayAbortEval: `${(step + 1) * stressStepS}s` });
    thresholds[`http_reqs{step:${step}}`] = ['count>=0'];
    thresholds[`http_req_failed{step:${step}}`] = [aborting(`rate<${MAX_FAILED_RATE}`)];
    thresholds[`checks{step:${step}}`] = [aborting(`rate>=${MIN_CHECK_RATE}`)];
    for (const group of groups) thresholds[`http_req_duration{group:${groupTag(group)},step:${step}}`] = [aborting(p95(p95Limit(group)))];
    if (sockets) thresholds[`${WS_DELIVERY_METRIC}{step:${step}}`] = [aborting(p95(WS_DELIVERY_P95_MS))];
  });
  return thresholds;
}

export const STRESS_STEP_JUDGED_S = STRESS_STEP_SECONDS - STRESS_STEP_SECONDS / 5;

/** The options a profile runs with (k6's `options` export). */
export function optionsFor(profile: Profile, groups: readonly string[]): Options {
  return {
    scenarios: profile.scenarios,
    thresholds: thresholdsFor(groups),
    summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(95)', 'p(99)', 'count'],
    setupTimeout: '15m',
    teardownTimeout: '15m',
  };
}
