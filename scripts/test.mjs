// `npm test`: type-check everything, then run every jest suite (unit, module, contract,
// browser). Contract suites also run against the real servers whose URLs are in the
// environment (POSTGRES_URL, AMQP_URL, S3_ENDPOINT, KEYCLOAK_URL); in CI a missing one
// fails. Suites that restart a server (`*.restart.test.ts`) run afterwards, one at a time, so a
// restart cannot disturb suites sharing that server. Ends with one plain summary line:
// "tests: N passed, N failed".
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNode, ROOT, run } from './node-runtime.mjs';
import { buildFrontends } from './build-frontends.mjs';

const jestArgs = process.argv.slice(2);
const nodeBin = ensureNode();
await buildFrontends(nodeBin);

console.log('Type-checking ...');
if (await run(nodeBin, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')]) !== 0) {
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
}

const reports = mkdtempSync(join(tmpdir(), 'ledgerline-jest-'));
async function jest(name, args, workers = 2) {
  const report = join(reports, `${name}.json`);
  const code = await run(nodeBin, [
    '--experimental-vm-modules', '--no-warnings=ExperimentalWarning',
    join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
    `--maxWorkers=${workers}`, '--json', `--outputFile=${report}`, ...args,
  ], { env: { ...process.env, NODE_ENV: 'test' } });
  try {
    const summary = JSON.parse(readFileSync(report, 'utf8'));
    return { code, passed: summary.numPassedTests, failed: summary.numFailedTests + summary.numRuntimeErrorTestSuites };
  } catch {
    // jest stopped before writing its report (its own output says why).
    return { code, passed: 0, failed: code === 0 ? 0 : 1 };
  }
}

const RESTART = '\\.restart\\.test\\.ts$';
// Paths and options given (`npm test -- <path>`) come first: after --testPathIgnorePatterns a
// path would be taken as one more pattern to ignore.
const phases = [await jest('main', [...jestArgs, '--testPathIgnorePatterns', RESTART, '/node_modules/', '/dist/'])];
// One at a time: a suite that restarts the broker would cut another's connections mid-test.
if (jestArgs.length === 0) phases.push(await jest('restart', ['--passWithNoTests', RESTART], 1));

const passed = phases.reduce((n, p) => n + p.passed, 0);
const failed = phases.reduce((n, p) => n + p.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(phases.some((p) => p.code !== 0) || failed > 0 ? 1 : 0);
