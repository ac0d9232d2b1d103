// `npm run fuzz`: schemathesis against the whole product, every operation of the merged
// OpenAPI (/api/docs/openapi.json), as three callers of two firms:
//   1. another firm's Admin on this firm's paths (`/api/{firm}/…`): every protected call
//      must be refused (401/403/404; the `other_firm_refused` check in fuzz_hooks.py);
//   2. a Client user, 3. a CPA (one client, one report type) on the document-request and
//      firm import calls only, and 4. the firm's Admin, on the plain paths, with schemathesis's
//      not_a_server_error, status_code_conformance, response_schema_conformance,
//      use_after_free and ignored_auth checks, stateful phase included; the CPA's run also
//      with `caller_refused` (the imports refuse them) and `no_foreign_items` (no request item
//      of another report type in any answer), against requests seeded with such items.
// Zero failures to pass. Runs the product in this process on the environment's servers
// (the embedded default unless their URLs are exported), with the rate limit raised.
// SCHEMATHESIS (default `schemathesis` on PATH), FUZZ_MAX_EXAMPLES (10), FUZZ_SEED, FUZZ_ONLY
// (only the runs whose name contains it, e.g. `CPA`, while working on one of them).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '../src/portal-harness.ts';

const SCHEMATHESIS = process.env.SCHEMATHESIS ?? 'schemathesis';
const MAX_EXAMPLES = process.env.FUZZ_MAX_EXAMPLES ?? '10';
const SEED = process.env.FUZZ_SEED ?? '20261124';
const HERE = dirname(fileURLToPath(import.meta.url));

interface OpenApi { paths: Record<string, Record<string, { security?: unknown[]; parameters?: { name: string; in: string; example?: unknown }[] }>> }

const portal = await startTestPortal({
  LOG_LEVEL: 'error', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000', LOGIN_MAX_FAILURES_PER_USER: '100000', LOGIN_MAX_FAILURES_PER_IP: '100000',
});
const call = apiClient(portal.gatewayUrl);
const suffix = randomBytes(3).toString('hex');
const [FIRM, OTHER] = [`fuzz${suffix}`, `other${suffix}`];
const work = mkdtempSync(join(tmpdir(), 'fuzz-'));
let failed = 0;

/** One schemathesis run; resolves with its exit code. */
function schemathesis(name: string, spec: string, token: string, checks: string, extraEnv: Record<string, string> = {}): Promise<number> {
  console.log(`\n== fuzz: ${name}`);
  const child = spawn(SCHEMATHESIS, [
    'run', spec, '--url', portal.gatewayUrl, '-H', `Authorization: Bearer ${token}`,
    '--checks', checks, '--max-examples', MAX_EXAMPLES, '--seed', SEED, '--no-color',
    '--report', 'junit', '--report-junit-path', join(work, `${name.replace(/\W+/g, '-')}.xml`),
  ], { stdio: ['ignore', 'pipe', 'pipe'], cwd: work, env: { ...process.env, SCHEMATHESIS_HOOKS: 'fuzz_hooks', PYTHONPATH: HERE, ...extraEnv } });
  relay(child.stdout, process.stdout);
  relay(child.stderr, process.stderr);
  return new Promise((resolve) => child.on('close', (code) => resolve(code ?? 1)));
}

/** Schemathesis closes with pytest-style banners ("==== No issues found in 12s ===="); CI reads
 *  such a line as a test runner's closing line that ran no test, so the banners lose their rules. */
function relay(from: Readable, to: NodeJS.WritableStream): void {
  createInterface({ input: from, crlfDelay: Infinity })
    .on('line', (line) => to.write(`${line.replace(/^=+ (.*?) =+$/, '-- $1 --')}\n`));
}

try {
  for (const shortName of [FIRM, OTHER]) {
    const r = await call('POST', '/api/companies', portal.adminToken, { name: `Fuzz ${shortName}`, shortName });
    if (r.status !== 201) throw new Error(`firm ${shortName}: ${r.status}`);
  }
  const client = await call<{ id: number }>('POST', `/api/${FIRM}/clients`, portal.adminToken, testClient('Fuzz Client'));
  const person = (who: string, roleId: number, clientIds: number[] | null) =>
    ({ username: `${who}_${suffix}`, fullName: `Fuzz ${who}`, roleId, clientIds, reportTypeIds: null });
  const admin = await createSignedInUser(call, portal.adminToken, FIRM, person('admin', 1, null));
  const clientUser = await createSignedInUser(call, portal.adminToken, FIRM, person('client', 4, [client.body.id]));
  // The CPA's report type and another one, and requests whose items mix them: what the CPA must never see of them.
  const reportType = async (name: string) => {
    const r = await call<{ id: number }>('POST', `/api/${FIRM}/report-types`, portal.adminToken, { name });
    if (r.status !== 201) throw new Error(`report type ${name}: ${r.status}`);
    return r.body.id;
  };
  const [cpaType, otherType] = [await reportType('Fuzz Income Tax'), await reportType('Fuzz Audit')];
  const cpa = await createSignedInUser(call, portal.adminToken, FIRM, { ...person('cpa', 3, [client.body.id]), reportTypeIds: [cpaType] });
  const seeded: { id: number; items: { id: number; title: string }[] }[] = [];
  for (const [reportTypeId, items] of [
    [cpaType, [{ title: 'Own item' }, { title: 'Audit item', reportTypeId: otherType }]],
    [null, [{ title: 'Loose item' }, { title: 'Audit item', reportTypeId: otherType }]],
    [null, [{ title: 'Audit item', reportTypeId: otherType }]],
  ] as const) {
    const r = await call<{ id: number; items: { id: number; title: string }[] }>('POST', `/api/${FIRM}/document-requests`, portal.adminToken, { clientId: client.body.id, reportTypeId, title: 'Fuzz request', dueDate: '2030-06-30', items });
    if (r.status !== 201) throw new Error(`request: ${r.status}`);
    seeded.push(r.body);
  }
  // The path ids' examples (schemathesis's examples phase): the first request and its Audit item, which the CPA must not reach.
  const pathExamples: Record<string, number> = { id: seeded[0]!.id, itemId: seeded[0]!.items.find((i) => i.title === 'Audit item')!.id };
  const outsider = await createSignedInUser(call, portal.adminToken, OTHER, person('outsider', 1, null));

  const doc = (await call<OpenApi>('GET', '/api/docs/openapi.json')).body;
  const plain = join(work, 'openapi.json');
  // "Sign out everywhere" would end the fuzzing caller's own token halfway through its run; the
  // other firm's run still calls it (and must be refused), the API suites test what it does.
  writeFileSync(plain, JSON.stringify({ ...doc, paths: Object.fromEntries(Object.entries(doc.paths).filter(([p]) => !p.endsWith('/sessions/revoke-all'))) }));
  // The same operations in the firm's own path form, for the other firm's token.
  const prefixed = join(work, 'openapi-firm.json');
  writeFileSync(prefixed, JSON.stringify({ ...doc, paths: Object.fromEntries(Object.entries(doc.paths).map(([p, ops]) => [p.replace(/^\/api\//, `/api/${FIRM}/`), ops])) }));
  // The CPA's run: the document-request calls (signed in) and the firm import calls.
  const cpaPaths = /^\/api\/(document-requests|request-templates|companies\/imports?)(\/|$)/;
  const cpaSpec = join(work, 'openapi-cpa.json');
  const withExamples = (ops: OpenApi['paths'][string]) => Object.fromEntries(Object.entries(ops).map(([method, op]) => [method, {
    ...op, ...(op.parameters ? { parameters: op.parameters.map((p) => (p.in === 'path' && p.name in pathExamples ? { ...p, example: pathExamples[p.name] } : p)) } : {}),
  }]));
  writeFileSync(cpaSpec, JSON.stringify({ ...doc, paths: Object.fromEntries(Object.entries(doc.paths).filter(([p]) => cpaPaths.test(p)).map(([p, ops]) => [p, withExamples(ops)])) }));
  const importOperations = Object.entries(doc.paths).filter(([p]) => /^\/api\/companies\/imports?(\/|$)/.test(p))
    .flatMap(([p, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${p}`));
  const publicOperations = Object.entries(doc.paths).flatMap(([p, ops]) => Object.entries(ops)
    .filter(([, op]) => Array.isArray(op.security) && op.security.length === 0)
    .map(([method]) => `${method.toUpperCase()} ${p.replace(/^\/api\//, `/api/${FIRM}/`)}`));

  const full = 'not_a_server_error,status_code_conformance,response_schema_conformance,use_after_free,ignored_auth';
  const runs: [string, () => Promise<number>][] = [
    ['another firm\'s Admin on this firm\'s paths', () => schemathesis('other firm', prefixed, outsider.token, 'not_a_server_error,other_firm_refused',
      { FUZZ_EXPECT_REFUSAL: '1', FUZZ_PUBLIC_OPERATIONS: publicOperations.join('\n') })],
    ['a Client user', () => schemathesis('client user', plain, clientUser.token, full)],
    ['a CPA on the requests and import calls', () => schemathesis('cpa', cpaSpec, cpa.token, `${full},caller_refused,no_foreign_items`,
      { FUZZ_REFUSED_OPERATIONS: importOperations.join('\n'), FUZZ_ITEM_REPORT_TYPES: String(cpaType) })],
    // Last: an Admin may delete and demote what the other runs rely on.
    ['the firm\'s Admin', () => schemathesis('firm admin', plain, admin.token, full)],
  ];
  const chosen = runs.filter(([name]) => !process.env.FUZZ_ONLY || name.includes(process.env.FUZZ_ONLY));
  for (const [name, run] of chosen) {
    const code = await run();
    if (code !== 0) {
      failed++;
      console.log(`fuzz: ${name} FAILED (schemathesis exit ${code})`);
    }
  }
  console.log(`\nfuzz: ${chosen.length - failed} of ${chosen.length} runs clean (reports in ${work})`);
} finally {
  await portal.stop();
}
process.exit(failed ? 1 : 0);
