// The load-test firm: created (or reused) by setup, removed by teardown. Everything goes
// through the public API with the platform administrator's credentials, so it works
// against any deployment; nothing here reads or changes a firm it did not create, and a
// reused firm must carry the load-test name.
import { sleep } from 'k6';
import { ADMIN_PASSWORD, ADMIN_USERNAME, KEEP_FIRM, REUSE_TENANT, SIZE } from './config.ts';
import { call, json, multipart, ok, type Answer } from './http.ts';

export const LOAD_TEST_FIRM_NAME = 'Load test';
const SETUP = 'setup';

export type Role = 'Admin' | 'DTA' | 'CPA' | 'Client';
const ROLES: readonly Role[] = ['Admin', 'DTA', 'CPA', 'Client'];

interface Size { clients: number; usersPerRole: number; reportTypes: number; files: number }
const SIZES: Record<string, Size> = {
  small: { clients: 5, usersPerRole: 1, reportTypes: 3, files: 10 },
  medium: { clients: 50, usersPerRole: 5, reportTypes: 8, files: 200 },
  large: { clients: 500, usersPerRole: 20, reportTypes: 12, files: 2000 },
};

export interface LoadUser { id: number; username: string; role: Role; token: string }

/** What setup hands every VU and teardown (k6 passes it as JSON). */
export interface Fixture {
  tenant: string;
  companyId: number;
  createdFirm: boolean;
  /** Marks what this run's scenarios make (file names, task titles), so teardown finds exactly that. */
  runId: string;
  password: string;
  users: LoadUser[];
  clientIds: number[];
  reportTypeIds: number[];
  fileIds: number[];
  searchTerms: string[];
  /** When setup signed the users in (tokens are renewed by the VUs well before they expire). */
  signedInAtMs: number;
}

const VOCABULARY = ['invoice', 'balance sheet', 'payroll', 'reconciliation', 'depreciation', 'tax return', 'audit', 'vendor', 'refund', 'penalty'];

function must<T>(answer: Answer, what: string): T {
  if (!ok(answer)) throw new Error(`${what}: ${answer.status} ${String(answer.body).slice(0, 300)}`);
  return json<T>(answer) as T;
}

const platformToken = (): string => must<{ token: string }>(call(SETUP, 'POST', '/api/admin/auth/login', { json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD } }), 'platform sign-in').token;

export function setUp(): Fixture {
  const size = SIZES[SIZE];
  if (!size) throw new Error(`Unknown LOADTEST_SIZE "${SIZE}": ${Object.keys(SIZES).join(', ')}`);
  const platform = platformToken();
  const companies = must<{ id: number; name: string; shortName: string }[]>(call(SETUP, 'GET', '/api/companies', { token: platform }), 'firm list');
  let firm = REUSE_TENANT ? companies.find((c) => c.shortName === REUSE_TENANT) : undefined;
  if (firm && !firm.name.startsWith(LOAD_TEST_FIRM_NAME)) throw new Error(`Firm "${REUSE_TENANT}" is not a load-test firm (its name does not start with "${LOAD_TEST_FIRM_NAME}"): refusing to use it`);
  const createdFirm = !firm;
  if (!firm) {
    firm = must<{ id: number; name: string; shortName: string }>(call(SETUP, 'POST', '/api/companies', {
      token: platform, json: { name: `${LOAD_TEST_FIRM_NAME} ${new Date().toISOString().slice(0, 16)}`, shortName: REUSE_TENANT ?? `loadtest${randomHex(6)}` },
    }), 'create the load-test firm');
  }
  const tenant = firm.shortName;
  const api = (path: string) => `/api/${tenant}/${path}`;
  // Services learn of a new firm within a second or so: retry until one answers for it
  // (the refusals until then are expected, not failed requests).
  for (let waited = 0; !ok(call(SETUP, 'GET', api('report-types'), { token: platform, refusalExpected: true })); waited += 0.25) {
    if (waited > 60) throw new Error('timed out waiting for the services to know the load-test firm');
    sleep(0.25);
  }

  const ensure = (path: string, names: string[], body: (name: string, i: number) => unknown): number[] => {
    const byName = new Map(must<{ id: number; name: string }[]>(call(SETUP, 'GET', api(path), { token: platform }), `list ${path}`).map((e) => [e.name, e.id]));
    return names.map((name, i) => byName.get(name) ?? must<{ id: number }>(call(SETUP, 'POST', api(path), { token: platform, json: body(name, i) }), `create ${path}`).id);
  };
  const reportTypeIds = ensure('report-types', range(size.reportTypes).map((i) => `LT Report ${i + 1}`), (name) => ({ name }));
  const clientIds = ensure('clients', range(size.clients).map((i) => `LT Client ${i + 1}`), (name, i) => ({
    name, address: `${i + 1} Load Street`, phone: '(555)-123-4567', federalId: '12-3456789', stateId: `LT-${i + 1}`, email: `client${i + 1}@loadtest.example`,
  }));

  const roles = must<{ id: number; name: string }[]>(call(SETUP, 'GET', api('roles'), { token: platform }), 'roles');
  const existingUsers = must<{ id: number; username: string }[]>(call(SETUP, 'GET', api('users'), { token: platform }), 'users');
  const password = `lt-${tenant}-password`;
  const users: LoadUser[] = [];
  for (const role of ROLES) {
    const roleId = roles.find((r) => r.name === role)?.id;
    if (!roleId) throw new Error(`The firm has no ${role} role`);
    for (let i = 0; i < size.usersPerRole; i++) {
      const username = `${tenant}-${role.toLowerCase()}-${i + 1}`;
      const scoped = role === 'Client' ? { clientIds: [clientIds[i % clientIds.length]] }
        : role === 'CPA' ? { clientIds: clientIds.filter((_, k) => k % 2 === i % 2), reportTypeIds: reportTypeIds.slice(0, Math.max(1, reportTypeIds.length - 1)) }
          : {};
      const id = existingUsers.find((u) => u.username === username)?.id
        ?? must<{ id: number }>(call(SETUP, 'POST', api('users'), { token: platform, json: { username, password, fullName: `Load ${role} ${i + 1}`, roleId, ...scoped } }), `create ${username}`).id;
      users.push({ id, username, role, token: signIn(SETUP, tenant, username, password) });
    }
  }
  const fixture: Fixture = {
    tenant, companyId: firm.id, createdFirm, runId: randomHex(8), password, users, clientIds, reportTypeIds, fileIds: [], searchTerms: VOCABULARY, signedInAtMs: Date.now(),
  };

  const admin = users.find((u) => u.role === 'Admin')!;
  const existingFiles = must<{ id: number; originalName: string }[]>(call(SETUP, 'GET', `${api('files')}?limit=${Math.min(1000, size.files)}`, { token: admin.token }), 'files');
  const seeded = new Map(existingFiles.filter((f) => f.originalName.startsWith('lt-seed-')).map((f) => [f.originalName, f.id]));
  for (let i = 0; i < size.files; i++) {
    const name = `lt-seed-${i + 1}.txt`;
    const id = seeded.get(name) ?? uploadTextFile(fixture, admin.token, name, i, SETUP);
    if (id === undefined) throw new Error(`upload of ${name} failed`);
    fixture.fileIds.push(id);
  }
  return fixture;
}

/** A firm user's token from a sign-in at the firm's login, timed under `group`. */
export function signIn(group: string, tenant: string, username: string, password: string): string {
  return must<{ token: string }>(call(group, 'POST', `/api/${tenant}/auth/login`, { json: { username, password } }), `sign-in of ${username}`).token;
}

/** A small text file with searchable words, filed as a report of a client; its id, or undefined. */
export function uploadTextFile(fixture: Fixture, token: string, name: string, i: number, group: string): number | undefined {
  const words = Array.from({ length: 60 }, (_, k) => VOCABULARY[(i * 3 + k * k) % VOCABULARY.length]).join(' ');
  return uploadFile(fixture, token, { name, type: 'text/plain', content: `Load test document ${i}. ${words}.\n` }, i, group);
}

export function uploadFile(fixture: Fixture, token: string, file: { name: string; type: string; content: string }, i: number, group: string): number | undefined {
  const form = multipart({
    fileType: 'report',
    clientId: String(fixture.clientIds[i % fixture.clientIds.length]),
    reportTypeId: String(fixture.reportTypeIds[i % fixture.reportTypeIds.length]),
  }, file);
  const answer = call(group, 'POST', `/api/${fixture.tenant}/files`, { token, body: form.body, contentType: form.contentType });
  return ok(answer) ? json<{ files?: { id: number }[] }>(answer)?.files?.[0]?.id : undefined;
}

/**
 * Removes what this run made: the files and tasks its scenarios made (found by the run's
 * mark), then, when setup created the firm (and it is not kept), the seeded files and the
 * firm. Compliance schedules and conversations have no delete call and go with the firm.
 */
export function tearDown(fixture: Fixture): void {
  const admin = fixture.users.find((u) => u.role === 'Admin')!;
  const token = signIn(SETUP, fixture.tenant, admin.username, fixture.password);
  const api = (path: string) => `/api/${fixture.tenant}/${path}`;
  const removeFirm = fixture.createdFirm && !KEEP_FIRM;
  for (const task of listAll<{ id: number; title: string }>(api('tasks'), token)) {
    if (task.title.includes(fixture.runId)) call(SETUP, 'DELETE', api(`tasks/${task.id}`), { token });
  }
  const seeded = new Set(fixture.fileIds);
  for (const file of listAll<{ id: number; originalName: string }>(api('files'), token)) {
    if (file.originalName.includes(fixture.runId) || (removeFirm && seeded.has(file.id))) call(SETUP, 'DELETE', api(`files/${file.id}`), { token });
  }
  if (!removeFirm) return;
  must(call(SETUP, 'DELETE', `/api/companies/${fixture.companyId}`, { token: platformToken() }), 'remove the load-test firm');
}

/** Every item of a paged list (limit/offset, at most 1,000 a page). */
function listAll<T>(path: string, token: string): T[] {
  const all: T[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = must<T[]>(call(SETUP, 'GET', `${path}?limit=1000&offset=${offset}`, { token }), `list ${path}`);
    all.push(...page);
    if (page.length < 1000) return all;
  }
}

const range = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const randomHex = (length: number): string => Array.from({ length }, () => Math.floor(Math.random() * 16).toString(16)).join('');
