// `npm run loadtest:smoke`: the product on its embedded default (a fresh data folder, in a
// child process) and the smoke profile against it with k6. Fails (k6's exit code) when a
// threshold broke: CI runs it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ephemeralServicePorts, spawnPortal } from '@ledgerline/server/portal-process.ts';
import { defaultOutDir, ensureK6, runK6 } from './k6.ts';

ensureK6();
const dataDir = mkdtempSync(join(tmpdir(), 'loadtest-smoke-'));
const admin = { username: 'loadtest-admin', password: 'loadtest-admin-password' };
// The embedded default whatever this shell points at (CI exports the real servers' URLs),
// and no AI endpoint: chat answers in excerpt mode.
const REAL_SERVER_SETTINGS = ['POSTGRES_URL', 'AMQP_URL', 'S3_ENDPOINT', 'KEYCLOAK_URL', 'OPENAI_API_KEY', 'OPENAI_BASE_URL'];
const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !REAL_SERVER_SETTINGS.includes(name)));
const portal = await spawnPortal({
  ...env,
  ...ephemeralServicePorts(),
  LOG_LEVEL: 'warn',
  PORT: '0',
  PORTAL_DATA_DIR: dataDir,
  PORTAL_ADMIN_USERNAME: admin.username,
  PORTAL_ADMIN_PASSWORD: admin.password,
  // One machine is every client here: the per-address API limit would be the first thing measured.
  GATEWAY_RATE_LIMIT_PER_MINUTE: '1000000',
});
let code = 1;
try {
  code = await runK6({ profile: 'smoke', baseUrl: portal.url, admin, outDir: process.env.LOADTEST_OUT ?? defaultOutDir('smoke') });
} finally {
  await portal.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(code);
