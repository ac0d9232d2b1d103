// The HTTP side of the images' smoke runs (scripts/ci/images.sh), against a running
// portal's gateway:
//   seed <baseUrl> <state.json>    health and readiness, the platform admin's sign-in, a new
//                                  firm and its admin user, that user's sign-in, an upload
//                                  and the upload found by a word of its content; what
//                                  `verify` needs is written to state.json
//   verify <baseUrl> <state.json>  health, the same user's sign-in, the same file found again
//   frontend <baseUrl>             the login page, the remote list, one remote's module
//                                  federation manifest and its entry script
// The platform admin is SMOKE_ADMIN_USERNAME / SMOKE_ADMIN_PASSWORD (the containers'
// PORTAL_ADMIN_*). Exits non-zero with the failed step's name.
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';

const [mode, baseUrl, stateFile] = process.argv.slice(2);
const DEADLINE_MS = 90_000;

async function call(method, path, { token, json, form } = {}) {
  const response = await fetch(new URL(path, baseUrl), {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(json) : form,
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  let body = text;
  try { body = JSON.parse(text); } catch { /* not JSON: kept as text */ }
  return { status: response.status, ok: response.ok, body, type: response.headers.get('content-type') ?? '' };
}

async function must(what, answer) {
  const r = await answer;
  if (!r.ok) throw new Error(`${what}: ${r.status} ${typeof r.body === 'string' ? r.body.slice(0, 300) : JSON.stringify(r.body)}`);
  console.log(`  ok  ${what}`);
  return r.body;
}

/** Retries `check` (a falsy result or a throw is "not yet") until it holds or the deadline passes. */
async function eventually(what, check) {
  const until = Date.now() + DEADLINE_MS;
  let last;
  for (;;) {
    try {
      const result = await check();
      if (result) {
        console.log(`  ok  ${what}`);
        return result;
      }
    } catch (err) {
      last = err;
    }
    if (Date.now() > until) throw new Error(`${what}: not within ${DEADLINE_MS / 1000} s${last ? ` (${last.message})` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

const healthy = () => eventually('/healthz and /readyz answer 200', async () =>
  (await call('GET', '/healthz')).ok && (await call('GET', '/readyz')).ok);

const signIn = async (state) =>
  (await must(`sign-in of ${state.username} at /api/${state.tenant}/auth/login`,
    call('POST', `/api/${state.tenant}/auth/login`, { json: { username: state.username, password: state.password } }))).token;

const findByContent = (state, token) => eventually(`search for "${state.word}" finds file ${state.fileId}`, async () => {
  const r = await call('GET', `/api/${state.tenant}/files?search=${state.word}`, { token });
  return r.ok && Array.isArray(r.body) && r.body.some((file) => file.id === state.fileId);
});

async function seed() {
  await healthy();
  const platform = (await must('platform admin sign-in', call('POST', '/api/admin/auth/login', {
    json: { username: process.env.SMOKE_ADMIN_USERNAME, password: process.env.SMOKE_ADMIN_PASSWORD },
  }))).token;
  const tenant = `smoke${randomBytes(3).toString('hex')}`;
  await must(`create firm ${tenant}`, call('POST', '/api/companies', { token: platform, json: { name: `Smoke ${tenant}`, shortName: tenant } }));
  const roles = await eventually('the services know the new firm', async () => {
    const r = await call('GET', `/api/${tenant}/roles`, { token: platform });
    return r.ok && (await call('GET', `/api/${tenant}/report-types`, { token: platform })).ok && r.body;
  });
  const state = { tenant, username: `${tenant}-admin`, password: `Smoke-${randomBytes(9).toString('base64url')}`, word: `zephyr${randomBytes(4).toString('hex')}` };
  await must('create the firm admin', call('POST', `/api/${tenant}/users`, {
    token: platform, json: { username: state.username, password: state.password, fullName: 'Smoke Admin', roleId: roles.find((r) => r.name === 'Admin').id },
  }));
  const token = await signIn(state);
  const form = new FormData();
  form.append('fileType', 'firm_document');
  form.append('file', new Blob([`Engagement letter, smoke test. The code word is ${state.word}.\n`], { type: 'text/plain' }), 'smoke.txt');
  const uploaded = await must('upload a text file', call('POST', `/api/${tenant}/files`, { token, form }));
  state.fileId = uploaded.files?.[0]?.id;
  if (typeof state.fileId !== 'number') throw new Error(`upload answered no file id: ${JSON.stringify(uploaded)}`);
  await findByContent(state, token);
  writeFileSync(stateFile, JSON.stringify(state));
}

async function verify() {
  const state = JSON.parse(readFileSync(stateFile, 'utf8'));
  await healthy();
  await findByContent(state, await signIn(state));
}

async function frontend() {
  const page = await must('the login page', call('GET', '/admin/login'));
  if (!/<html/i.test(page) || !/<script/i.test(page)) throw new Error(`the login page is not the shell's HTML: ${page.slice(0, 200)}`);
  const { remotes } = await must('the remote list /frontends.json', call('GET', '/frontends.json'));
  if (!Array.isArray(remotes) || remotes.length === 0) throw new Error('the remote list is empty');
  const remote = remotes[0];
  const manifest = await must(`${remote.name}'s manifest ${remote.manifestUrl}`, call('GET', remote.manifestUrl));
  const entry = manifest.metaData?.remoteEntry;
  if (!entry?.name) throw new Error(`${remote.manifestUrl} names no remote entry`);
  const entryUrl = new URL(`${entry.path ? `${entry.path.replace(/\/?$/, '/')}` : ''}${entry.name}`, new URL(remote.manifestUrl, baseUrl)).pathname;
  const script = await must(`${remote.name}'s entry ${entryUrl}`, call('GET', entryUrl));
  if (typeof script !== 'string' || script.length < 100) throw new Error(`${entryUrl} is not a script`);
}

const modes = { seed, verify, frontend };
if (!modes[mode] || !baseUrl || (mode !== 'frontend' && !stateFile)) {
  console.error('usage: image-smoke.mjs seed|verify <baseUrl> <state.json> | frontend <baseUrl>');
  process.exit(2);
}
try {
  await modes[mode]();
} catch (err) {
  console.error(`  FAILED ${err.message}`);
  process.exit(1);
}
