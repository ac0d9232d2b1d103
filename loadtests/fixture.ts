// The load-test firm: created (or reused) before a run, removed after it. Everything goes
// through the public API with the platform administrator's credentials, so it works
// against any deployment; nothing here reads or changes a firm it did not create, and a
// reused firm must carry the load-test name.
import { randomBytes } from 'node:crypto';
import { LoadClient } from './lib/client.ts';
import { Recorder } from './lib/metrics.ts';

export const LOAD_TEST_FIRM_NAME = 'Load test';
const SETUP_GROUP = 'setup';

export type Role = 'Admin' | 'DTA' | 'CPA' | 'Client';
export const ROLES: readonly Role[] = ['Admin', 'DTA', 'CPA', 'Client'];

export interface Size { clients: number; usersPerRole: number; reportTypes: number; files: number }
export const SIZES: Record<string, Size> = {
  small: { clients: 5, usersPerRole: 1, reportTypes: 3, files: 10 },
  medium: { clients: 50, usersPerRole: 5, reportTypes: 8, files: 200 },
  large: { clients: 500, usersPerRole: 20, reportTypes: 12, files: 2000 },
};

export interface LoadUser { id: number; username: string; role: Role; token: string; signedInAtMs: number }

export interface Fixture {
  tenant: string;
  companyId: number;
  createdFirm: boolean;
  password: string;
  users: LoadUser[];
  clientIds: number[];
  reportTypeIds: number[];
  fileIds: number[];
  /** Words the seeded files contain, for content search. */
  searchTerms: readonly string[];
  /** Files and tasks the scenarios made, removed at teardown. */
  created: { files: number[]; tasks: number[] };
}

export interface Target { baseUrl: string; adminUsername: string; adminPassword: string }

const VOCABULARY = ['invoice', 'balance sheet', 'payroll', 'reconciliation', 'depreciation', 'tax return', 'audit', 'vendor', 'refund', 'penalty'];
/** Tokens are re-issued well before the default 8-hour lifetime ends (soak runs last hours). */
const TOKEN_REFRESH_MS = 30 * 60 * 1000;

const must = async <T>(answer: Promise<{ status: number; ok: boolean; body: T }>, what: string): Promise<T> => {
  const r = await answer;
  if (!r.ok) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

export async function setUp(target: Target, size: Size, reuseTenant: string | undefined): Promise<Fixture> {
  const http = new LoadClient(target.baseUrl, new Recorder());
  const platform = (await must(http.request<{ token: string }>(SETUP_GROUP, 'POST', '/api/admin/auth/login', { json: { username: target.adminUsername, password: target.adminPassword } }), 'platform sign-in')).token;
  const companies = await must(http.request<{ id: number; name: string; shortName: string }[]>(SETUP_GROUP, 'GET', '/api/companies', { token: platform }), 'firm list');
  let firm = reuseTenant ? companies.find((c) => c.shortName === reuseTenant) : undefined;
  if (firm && !firm.name.startsWith(LOAD_TEST_FIRM_NAME)) throw new Error(`Firm "${reuseTenant}" is not a load-test firm (its name does not start with "${LOAD_TEST_FIRM_NAME}"): refusing to use it`);
  const createdFirm = !firm;
  if (!firm) {
    const shortName = reuseTenant ?? `loadtest${randomBytes(3).toString('hex')}`;
    firm = await must(http.request<{ id: number; name: string; shortName: string }>(SETUP_GROUP, 'POST', '/api/companies', {
      token: platform, json: { name: `${LOAD_TEST_FIRM_NAME} ${new Date().toISOString().slice(0, 16)}`, shortName },
    }), 'create the load-test firm');
  }
  const tenant = firm.shortName;
  const api = (path: string) => `/api/${tenant}/${path}`;
  // Services learn of a new firm within a second or so: retry until one answers for it.
  await eventually(async () => (await http.request(SETUP_GROUP, 'GET', api('report-types'), { token: platform })).ok, 'the services to know the firm');

  const ensure = async (path: string, names: string[], body: (name: string, i: number) => unknown): Promise<number[]> => {
    const existing = await must(http.request<{ id: number; name: string }[]>(SETUP_GROUP, 'GET', api(path), { token: platform }), `list ${path}`);
    const byName = new Map(existing.map((e) => [e.name, e.id]));
    const ids: number[] = [];
    for (const [i, name] of names.entries()) {
      ids.push(byName.get(name) ?? (await must(http.request<{ id: number }>(SETUP_GROUP, 'POST', api(path), { token: platform, json: body(name, i) }), `create ${path}`)).id);
    }
    return ids;
  };
  const reportTypeIds = await ensure('report-types', range(size.reportTypes).map((i) => `LT Report ${i + 1}`), (name) => ({ name }));
  const clientIds = await ensure('clients', range(size.clients).map((i) => `LT Client ${i + 1}`), (name, i) => ({
    name, address: `${i + 1} Load Street`, phone: '(555)-123-4567', federalId: '12-3456789', stateId: `LT-${i + 1}`, email: `client${i + 1}@loadtest.example`,
  }));

  const roles = await must(http.request<{ id: number; name: string }[]>(SETUP_GROUP, 'GET', api('roles'), { token: platform }), 'roles');
  const existingUsers = await must(http.request<{ id: number; username: string }[]>(SETUP_GROUP, 'GET', api('users'), { token: platform }), 'users');
  const password = `lt-${tenant}-password`;
  const users: LoadUser[] = [];
  for (const role of ROLES) {
    const roleId = roles.find((r) => r.name === role)?.id;
    if (!roleId) throw new Error(`The firm has no ${role} role`);
    for (let i = 0; i < size.usersPerRole; i++) {
      const username = `${tenant}-${role.toLowerCase()}-${i + 1}`;
      const scoped = role === 'Client' ? { clientIds: [clientIds[i % clientIds.length]!] }
        : role === 'CPA' ? { clientIds: clientIds.filter((_, k) => k % 2 === i % 2), reportTypeIds: reportTypeIds.slice(0, Math.max(1, reportTypeIds.length - 1)) }
          : {};
      const id = existingUsers.find((u) => u.username === username)?.id
        ?? (await must(http.request<{ id: number }>(SETUP_GROUP, 'POST', api('users'), { token: platform, json: { username, password, fullName: `Load ${role} ${i + 1}`, roleId, ...scoped } }), `create ${username}`)).id;
      users.push({ id, username, role, token: '', signedInAtMs: 0 });
    }
  }
  const fixture: Fixture = { tenant, companyId: (firm as { id: number }).id, createdFirm, password, users, clientIds, reportTypeIds, fileIds: [], searchTerms: VOCABULARY, created: { files: [], tasks: [] } };
  for (const user of users) await signIn(http, fixture, user);

  const admin = users.find((u) => u.role === 'Admin')!;
  const existingFiles = await must(http.request<{ id: number; originalName: string }[]>(SETUP_GROUP, 'GET', `${api('files')}?limit=${size.files}`, { token: admin.token }), 'files');
  const seeded = new Map(existingFiles.filter((f) => f.originalName.startsWith('lt-seed-')).map((f) => [f.originalName, f.id]));
  for (let i = 0; i < size.files; i++) {
    const name = `lt-seed-${i + 1}.txt`;
    const id = seeded.get(name) ?? (await uploadTextFile(http, fixture, admin.token, name, i, SETUP_GROUP));
    if (id === undefined) throw new Error(`upload of ${name} failed`);
    fixture.fileIds.push(id);
  }
  return fixture;
}

/** Signs `user` in again when their token is missing or getting old; returns the token. */
export async function signIn(http: LoadClient, fixture: Fixture, user: LoadUser, group = SETUP_GROUP): Promise<string> {
  if (user.token && Date.now() - user.signedInAtMs < TOKEN_REFRESH_MS) return user.token;
  const r = await http.request<{ token: string }>(group, 'POST', `/api/${fixture.tenant}/auth/login`, { json: { username: user.username, password: fixture.password } });
  if (!r.ok) throw new Error(`sign-in of ${user.username}: ${r.status}`);
  user.token = r.body.token;
  user.signedInAtMs = Date.now();
  return user.token;
}

/** A small text file with searchable words, filed as a report of a client; its id, or undefined. */
export async function uploadTextFile(http: LoadClient, fixture: Fixture, token: string, name: string, i: number, group: string): Promise<number | undefined> {
  const words = Array.from({ length: 60 }, (_, k) => VOCABULARY[(i * 3 + k * k) % VOCABULARY.length]).join(' ');
  return uploadFile(http, fixture, token, new Blob([`Load test document ${i}. ${words}.\n`], { type: 'text/plain' }), name, i, group);
}

export async function uploadFile(http: LoadClient, fixture: Fixture, token: string, content: Blob, name: string, i: number, group: string): Promise<number | undefined> {
  const form = new FormData();
  form.append('fileType', 'report');
  form.append('clientId', String(fixture.clientIds[i % fixture.clientIds.length]));
  form.append('reportTypeId', String(fixture.reportTypeIds[i % fixture.reportTypeIds.length]));
  form.append('file', content, name);
  const r = await http.request<{ files?: { id: number }[] }>(group, 'POST', `/api/${fixture.tenant}/files`, { token, form });
  return r.ok ? r.body.files?.[0]?.id : undefined;
}

/** Removes what the run made: the scenarios' files and tasks, then the firm if setup created it (unless kept). */
export async function tearDown(target: Target, fixture: Fixture, keepFirm: boolean): Promise<void> {
  const http = new LoadClient(target.baseUrl, new Recorder());
  const admin = fixture.users.find((u) => u.role === 'Admin')!;
  const token = await signIn(http, fixture, admin);
  for (const id of fixture.created.tasks) await http.request(SETUP_GROUP, 'DELETE', `/api/${fixture.tenant}/tasks/${id}`, { token });
  const files = fixture.createdFirm && !keepFirm ? [...fixture.created.files, ...fixture.fileIds] : fixture.created.files;
  for (const id of files) await http.request(SETUP_GROUP, 'DELETE', `/api/${fixture.tenant}/files/${id}`, { token });
  if (!fixture.createdFirm || keepFirm) return;
  const platform = (await must(http.request<{ token: string }>(SETUP_GROUP, 'POST', '/api/admin/auth/login', { json: { username: target.adminUsername, password: target.adminPassword } }), 'platform sign-in')).token;
  await must(http.request(SETUP_GROUP, 'DELETE', `/api/companies/${fixture.companyId}`, { token: platform }), 'remove the load-test firm');
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i);

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}
