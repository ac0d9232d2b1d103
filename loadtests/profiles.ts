/**
 * How many virtual users over time. VUs ramp linearly from one stage's count to the next.
 * `thinkMs` is the pause between a VU's iterations (people read what they asked for).
 */
export interface Stage { durationS: number; vus: number }

export interface Profile {
  name: string;
  description: string;
  stages: Stage[];
  thinkMs: number;
  /** Stress: thresholds are judged per stage and the run stops at the first stage that breaks them. */
  stepwise: boolean;
  /** Smoke: every endpoint group must have been exercised at least once. */
  requireEveryGroup: boolean;
}

const scaled = (n: number, scale: number) => Math.max(1, Math.round(n * scale));

export function profileNamed(name: string, env: NodeJS.ProcessEnv = process.env): Profile {
  const scale = Number(env.LOADTEST_VU_SCALE ?? 1);
  switch (name) {
    case 'smoke':
      return { name, description: '2 VUs for 30 s: every scenario works and answers in time', stages: [{ durationS: 2, vus: 2 }, { durationS: 28, vus: 2 }], thinkMs: 100, stepwise: false, requireEveryGroup: true };
    case 'load':
      // A firm's working day compressed into 12 minutes: a morning ramp, a mid-morning peak,
      // the afternoon, the evening tail.
      return {
        name, description: "a firm's working day in 12 minutes (ramp, peak, afternoon, tail)", thinkMs: 1000, stepwise: false, requireEveryGroup: false,
        stages: [{ durationS: 60, vus: scaled(10, scale) }, { durationS: 120, vus: scaled(25, scale) }, { durationS: 120, vus: scaled(25, scale) },
          { durationS: 240, vus: scaled(15, scale) }, { durationS: 120, vus: scaled(20, scale) }, { durationS: 60, vus: scaled(3, scale) }],
      };
    case 'stress': {
      // Doubling steps without think time until a step breaks the thresholds: the last
      // step that held is the knee.
      const stepS = Number(env.LOADTEST_STRESS_STEP_S ?? 30);
      const steps = [1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128].map((v) => scaled(v, scale));
      return { name, description: `ramp in ${stepS}-s steps until the thresholds break; reports the knee`, thinkMs: 0, stepwise: true, requireEveryGroup: false, stages: steps.map((vus) => ({ durationS: stepS, vus })) };
    }
    case 'soak': {
      const hours = Number(env.LOADTEST_SOAK_HOURS ?? 2);
      return { name, description: `a steady working load for ${hours} h, watching memory`, thinkMs: 1000, stepwise: false, requireEveryGroup: false, stages: [{ durationS: 60, vus: scaled(15, scale) }, { durationS: hours * 3600, vus: scaled(15, scale) }] };
    }
    default:
      throw new Error(`Unknown profile "${name}": smoke, load, stress or soak`);
  }
}
