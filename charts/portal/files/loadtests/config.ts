// What a run is told through the environment (k6's __ENV: `-e NAME=value` or the process
// environment). The wrapper (loadtests/run.ts) and the chart's Job set them.

const env = (name: string, fallback?: string): string => {
  const value = __ENV[name] ?? fallback;
  if (value === undefined || value === '') throw new Error(`${name} is required (see docs/running/load-tests.md)`);
  return value;
};

/** The portal's address (its gateway), without a trailing slash. */
export const BASE_URL = env('BASE_URL').replace(/\/$/, '');
/** A platform administrator: setup creates the load-test firm with it, teardown removes it. */
export const ADMIN_USERNAME = env('LOADTEST_ADMIN_USERNAME');
export const ADMIN_PASSWORD = env('LOADTEST_ADMIN_PASSWORD');
export const PROFILE = env('LOADTEST_PROFILE', 'smoke');
export const SIZE = env('LOADTEST_SIZE', 'small');
/** Reuse this load-test firm (its short name) instead of creating one. */
export const REUSE_TENANT = __ENV.LOADTEST_TENANT || undefined;
/** Leave a firm setup created (and its seeded files) for the next run. */
export const KEEP_FIRM = __ENV.LOADTEST_KEEP_FIRM === '1';
/** Only these scenarios (comma-separated names), all by default. */
export const ONLY_SCENARIOS = (__ENV.LOADTEST_SCENARIOS ?? '').split(',').map((s) => s.trim()).filter(Boolean);
/** Where handleSummary writes summary.json (the wrapper's and the Job's report folder). */
export const OUT_DIR = (__ENV.LOADTEST_OUT ?? '.').replace(/\/$/, '');
/** Multiplies the VUs (load, soak) and the arrival rates (stress). */
export const SCALE = Number(__ENV.LOADTEST_SCALE ?? 1);
export const SMOKE_SECONDS = Number(__ENV.LOADTEST_SMOKE_S ?? 30);
export const STRESS_STEP_SECONDS = Number(__ENV.LOADTEST_STRESS_STEP_S ?? 30);
export const SOAK_HOURS = Number(__ENV.LOADTEST_SOAK_HOURS ?? 2);
/**
 * Questions a firm may ask per minute: the product's own AI budget
 * (AI_FIRM_REQUESTS_PER_MINUTE, 60 by default, 429 beyond) is a limit by design, not a
 * capacity to find, so questions arrive at this fixed rate whatever the profile.
 */
export const CHAT_ASKS_PER_MINUTE = Number(__ENV.LOADTEST_CHAT_PER_MINUTE ?? 50);
/** p95 limits to override, e.g. "clients=500,upload-50mb=60000" (a slower test cluster). */
export const P95_OVERRIDES: Record<string, number> = Object.fromEntries(
  (__ENV.LOADTEST_P95_MS ?? '').split(',').map((pair) => pair.split('=').map((s) => s.trim())).filter(([name, ms]) => name && ms).map(([name, ms]) => [name, Number(ms)]),
);
