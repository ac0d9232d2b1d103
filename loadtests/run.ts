// `npm run loadtest -- <profile>`: the k6 suite against any deployment.
//   BASE_URL                   the portal's address (the gateway), e.g. https://portal.example.com
//   LOADTEST_ADMIN_USERNAME    a platform administrator (PORTAL_ADMIN_USERNAME of the deployment)
//   LOADTEST_ADMIN_PASSWORD
//   LOADTEST_PROFILE           smoke | load | stress | soak (or the first argument)
//   LOADTEST_OUT               report folder (default loadtests/results/<profile>-<time>)
// and the suite's other LOADTEST_* settings (docs/running/load-tests.md). Ends with k6's exit
// code (99: a threshold broke); stress ends with 1 when even its first step broke them.
import { defaultOutDir, runK6 } from './k6.ts';

const required = (name: string): string => {
  const value = process.env[name];
  if (!value) {
    console.error(`${name} is required (see docs/running/load-tests.md)`);
    process.exit(2);
  }
  return value;
};
const profile = process.argv[2] ?? process.env.LOADTEST_PROFILE ?? 'smoke';
process.exit(await runK6({
  profile,
  baseUrl: required('BASE_URL'),
  admin: { username: required('LOADTEST_ADMIN_USERNAME'), password: required('LOADTEST_ADMIN_PASSWORD') },
  outDir: process.env.LOADTEST_OUT ?? defaultOutDir(profile),
}));
