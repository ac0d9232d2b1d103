// `npm test`: type-check everything, then run every jest suite (unit, module, contract,
// browser). Contract suites also run against the real servers whose URLs are in the
// environment (POSTGRES_URL, AMQP_URL, S3_ENDPOINT, …); in CI a missing one fails.
// Ends with one plain summary line: "tests: N passed, N failed".
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureNode, ROOT, run } from './node-runtime.mjs';
import { buildFrontends } from './build-frontends.mjs';

const jestArgs = process.argv.slice(2);
const nodeBin = ensureNode();
await buildFrontends(nodeBin);

console.log('Type-checking ...');
const typecheck = await run(nodeBin, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(ROOT, 'tsconfig.json')]);
if (typecheck !== 0) {
  console.log('tests: 0 passed, 1 failed');
  process.exit(typecheck);
}

const report = join(mkdtempSync(join(tmpdir(), 'ledgerline-jest-')), 'report.json');
const code = await run(nodeBin, [
  '--experimental-vm-modules', '--no-warnings=ExperimentalWarning',
  join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
  '--maxWorkers=2', '--json', `--outputFile=${report}`, ...jestArgs,
], { env: { ...process.env, NODE_ENV: 'test' } });

let summary = null;
try {
  summary = JSON.parse(readFileSync(report, 'utf8'));
} catch {
  // jest crashed before writing its report; its own output says why.
}
const passed = summary?.numPassedTests ?? 0;
const failed = (summary?.numFailedTests ?? 0) + (summary?.numRuntimeErrorTestSuites ?? 0) + (code !== 0 && !summary ? 1 : 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(code !== 0 ? code : failed > 0 ? 1 : 0);
