// `npm run bench:revocation`: how long an old token keeps working after its user is
// deleted or demoted, or its firm deactivated, in each service. Runs the product in this
// process on the environment's servers (the embedded default, or PostgreSQL, RabbitMQ and
// Keycloak when their URLs are exported), repeats each change ROUNDS times, and prints,
// per change and service, the median and worst time from the change call's answer to
// the first refusal. No target is asserted: docs/building/benchmarks.md states what to expect.
import { randomBytes } from 'node:crypto';
import { apiClient, createSignedInUser, startTestPortal, testClient } from '@ledgerline/server/portal-harness.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const POLL_MS = 5;

const portal = await startTestPortal({ LOG_LEVEL: 'warn', GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000' });
const call = apiClient(portal.gatewayUrl);
const platform = portal.adminToken;
const firm = `bench${randomBytes(3).toString('hex')}`;

/**
 * One call per service that holds firm data, which an Admin may make and a Client user
 * of no client may not; a refusal is any 401, 403 or 404.
 */
const PROBES: Record<string, [method: string, path: string]> = {
  identity: ['GET', '/users'],
  directory: ['GET', '/clients/{client}'],
  files: ['POST', '/files/extract-content'],
  activity: ['GET', '/dashboard/users/-1/activity'],
};

type Change = 'delete' | 'demote' | 'deactivate';
const samples: Record<Change, Record<string, number[]>> = { delete: {}, demote: {}, deactivate: {} };

/** Until every service serves the token (a firm reactivated a moment ago included). */
async function waitForService(token: string, probes: [string, string][]): Promise<void> {
  for (const [method, path] of probes) {
    while ((await call(method, `/api/${firm}${path}`, token)).status !== 200) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

async function waitForRefusal(token: string, [method, path]: [string, string], since: number): Promise<number> {
  for (;;) {
    const { status } = await call(method, `/api/${firm}${path}`, token);
    if (status === 401 || status === 403 || status === 404) return performance.now() - since;
    if (performance.now() - since > 30_000) throw new Error(`${path} still answers ${status} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

try {
  const created = await call<{ id: number }>('POST', '/api/companies', platform, { name: 'Revocation bench', shortName: firm });
  if (created.status !== 201) throw new Error(`firm: ${created.status}`);
  const client = await call<{ id: number }>('POST', `/api/${firm}/clients`, platform, testClient('Bench Client'));
  const probes = Object.fromEntries(Object.entries(PROBES).map(([service, [method, path]]) => [service, [method, path.replace('{client}', String(client.body.id))] as [string, string]]));

  for (let round = 0; round < ROUNDS; round++) {
    for (const change of ['delete', 'demote', 'deactivate'] as const) {
      const username = `${change}_${round}_${firm}`;
      // A CPA limited to nothing would be refused by the directory from the start: an Admin.
      const user = await createSignedInUser(call, platform, firm, { username, fullName: username, roleId: 1, clientIds: null, reportTypeIds: null });
      await waitForService(user.token, Object.values(probes));
      if (change === 'delete') {
        await call('DELETE', `/api/${firm}/users/${user.id}`, platform);
      } else if (change === 'demote') {
        // A Client user of no client: refused by every probe.
        await call('PUT', `/api/${firm}/users/${user.id}`, platform, { username, fullName: username, password: '', roleId: 4, clientIds: null, reportTypeIds: null });
      } else {
        await call('PUT', `/api/companies/${created.body.id}`, platform, { name: 'Revocation bench', shortName: firm, isActive: false });
      }
      const answered = performance.now();
      const waits = await Promise.all(Object.entries(probes).map(async ([service, probe]) => [service, await waitForRefusal(user.token, probe, answered)] as const));
      for (const [service, ms] of waits) (samples[change][service] ??= []).push(ms);
      if (change === 'deactivate') await call('PUT', `/api/companies/${created.body.id}`, platform, { name: 'Revocation bench', shortName: firm, isActive: true });
    }
  }

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`\nTime from the change's answer to the old token's first refusal (${ROUNDS} rounds, ms: median / worst)`);
  console.log(`${'change'.padEnd(12)}${Object.keys(PROBES).map((s) => s.padEnd(18)).join('')}`);
  for (const change of Object.keys(samples) as Change[]) {
    const row = Object.keys(PROBES).map((s) => `${median(samples[change][s]!).toFixed(0)} / ${Math.max(...samples[change][s]!).toFixed(0)}`.padEnd(18));
    console.log(`${change.padEnd(12)}${row.join('')}`);
  }
} finally {
  await portal.stop();
}
