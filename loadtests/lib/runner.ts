import type { Fixture } from '../fixture.ts';
import type { Profile } from '../profiles.ts';
import { LoadClient } from './client.ts';
import type { Recorder } from './metrics.ts';
import type { Scenario, VuContext } from './scenario.ts';
import { judge, type ThresholdResult } from './thresholds.ts';

export interface StepResult { vus: number; fromMs: number; toMs: number; ratePerS: number; thresholds: ThresholdResult[]; held: boolean }

export interface RunOutcome { steps: StepResult[]; stoppedEarly: boolean }

const CONTROL_TICK_MS = 250;

/**
 * Drives virtual users through the profile's stages. Each VU repeats a weighted round of
 * the scenarios (its own starting point), pausing `thinkMs` between iterations; the VU
 * count follows the stages, ramping linearly. A VU told to stop finishes its iteration.
 */
export async function drive(options: { baseUrl: string; profile: Profile; scenarios: readonly Scenario[]; fixture: Fixture; recorder: Recorder }): Promise<RunOutcome> {
  const { profile, scenarios, fixture, recorder } = options;
  const round = weightedRound(scenarios);
  const http = new LoadClient(options.baseUrl, recorder);
  const running: { stop: boolean; done: Promise<void> }[] = [];
  const everyVu: Promise<void>[] = [];

  const startVu = (vu: number) => {
    const handle = { stop: false, done: Promise.resolve() };
    const closers: (() => void | Promise<void>)[] = [];
    const ctx: VuContext = {
      vu, iteration: 0, http, fixture, recorder, state: new Map(),
      check: (name, ok) => recorder.check(name, ok),
      onClose: (close) => { closers.push(close); },
    };
    handle.done = (async () => {
      for (let i = 0; !handle.stop; i++) {
        ctx.iteration = i;
        const scenario = round[(vu * 3 + i) % round.length]!;
        try {
          await scenario.run(ctx);
        } catch (err) {
          recorder.check(`${scenario.name} ran without an error (${String(err).slice(0, 80)})`, false);
        }
        if (profile.thinkMs) await sleep(profile.thinkMs);
      }
      for (const close of closers) await close();
    })();
    running.push(handle);
    everyVu.push(handle.done);
  };
  const setVus = (target: number) => {
    while (running.length < target) startVu(running.length);
    while (running.length > target) running.pop()!.stop = true;
    recorder.vus = running.length;
  };

  const steps: StepResult[] = [];
  let previousVus = 0;
  let stoppedEarly = false;
  for (const stage of profile.stages) {
    const fromMs = Date.now();
    const endMs = fromMs + stage.durationS * 1000;
    while (Date.now() < endMs) {
      const progress = (Date.now() - fromMs) / (stage.durationS * 1000);
      setVus(profile.stepwise ? stage.vus : Math.round(previousVus + (stage.vus - previousVus) * progress));
      await sleep(Math.min(CONTROL_TICK_MS, endMs - Date.now()));
    }
    setVus(stage.vus);
    previousVus = stage.vus;
    if (profile.stepwise) {
      const toMs = Date.now();
      // The step's first seconds still carry the previous step's queue: judged from a fifth in.
      const judgedFrom = fromMs + (toMs - fromMs) / 5;
      const thresholds = judge(recorder, scenarios, { fromMs: judgedFrom, toMs, requireEveryGroup: false });
      const held = thresholds.every((t) => t.ok);
      steps.push({ vus: stage.vus, fromMs: judgedFrom, toMs, ratePerS: recorder.httpTotals(judgedFrom, toMs).ratePerS, thresholds, held });
      console.log(`  step ${String(stage.vus).padStart(3)} VUs: ${recorder.httpTotals(judgedFrom, toMs).ratePerS.toFixed(1)} req/s, thresholds ${held ? 'held' : `broken (${thresholds.filter((t) => !t.ok).map((t) => `${t.name} ${t.actual}`).join(', ')})`}`);
      if (!held) {
        stoppedEarly = true;
        break;
      }
    }
  }
  setVus(0);
  await Promise.all(everyVu);
  return { steps, stoppedEarly };
}

/** Smooth weighted round robin: each scenario `weight` times per round, spread out. */
function weightedRound(scenarios: readonly Scenario[]): Scenario[] {
  const total = scenarios.reduce((sum, s) => sum + s.weight, 0);
  const current = scenarios.map(() => 0);
  const round: Scenario[] = [];
  for (let n = 0; n < total; n++) {
    let best = 0;
    scenarios.forEach((s, i) => {
      current[i]! += s.weight;
      if (current[i]! > current[best]!) best = i;
    });
    current[best]! -= total;
    round.push(scenarios[best]!);
  }
  return round;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));
