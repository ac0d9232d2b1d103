// `npm run loadtest -- <profile>`: a load run against any deployment.
//   BASE_URL                   the portal's address (the gateway), e.g. https://portal.example.com
//   LOADTEST_ADMIN_USERNAME    a platform administrator (PORTAL_ADMIN_USERNAME of the deployment)
//   LOADTEST_ADMIN_PASSWORD
//   LOADTEST_PROFILE           smoke | load | stress | soak (or the first argument)
//   LOADTEST_SIZE              small | medium | large (the load-test firm's size; default small)
//   LOADTEST_TENANT            reuse this load-test firm (short name) instead of a new one
//   LOADTEST_KEEP_FIRM=1       leave the firm (and its seeded files) for the next run
//   LOADTEST_SCENARIOS         comma-separated scenario names (default: all)
//   LOADTEST_OUT               report folder (default loadtests/results/<profile>-<time>)
//   LOADTEST_VU_SCALE, LOADTEST_STRESS_STEP_S, LOADTEST_SOAK_HOURS  (see profiles.ts)
// Exits 1 when a threshold broke (stress: when even its first step broke them).
import { defaultOutDir, runLoadTest } from './load-test.ts';

const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required (see loadtests/run.ts)`);
    process.exit(2);
  }
  return value;
};
const profile = process.argv[2] ?? process.env.LOADTEST_PROFILE ?? 'smoke';
const held = await runLoadTest({
  target: { baseUrl: required('BASE_URL'), adminUsername: required('LOADTEST_ADMIN_USERNAME'), adminPassword: required('LOADTEST_ADMIN_PASSWORD') },
  profile,
  size: process.env.LOADTEST_SIZE ?? 'small',
  tenant: process.env.LOADTEST_TENANT || undefined,
  keepFirm: process.env.LOADTEST_KEEP_FIRM === '1',
  scenarioNames: process.env.LOADTEST_SCENARIOS?.split(',').map((s) => s.trim()).filter(Boolean),
  outDir: process.env.LOADTEST_OUT ?? defaultOutDir(profile),
});
process.exit(held ? 0 : 1);
