import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { MAIN_PATH, spawnPortal } from '../src/portal-process.ts';
import { adminLogin, portalTestEnv } from '../src/portal-harness.ts';

describe('crash recovery', () => {
  it('keeps everything committed before a SIGKILL in the middle of requests', async () => {
    const env = portalTestEnv();
    const first = await spawnPortal(env);
    const confirmed: string[] = [];
    // A burst of logins; the process is killed while some are still in flight.
    const burst = Array.from({ length: 40 }, async () => {
      try {
        const r = await adminLogin(first.url);
        if (r.ok) confirmed.push(((await r.json()) as { token: string }).token);
      } catch {
        // Cut off by the kill: the client never saw a success, so nothing was promised.
      }
    });
    while (confirmed.length < 5) await new Promise((r) => setTimeout(r, 20));
    first.child.kill('SIGKILL');
    await Promise.all(burst);
    await new Promise((r) => first.child.once('exit', r));
    expect(confirmed.length).toBeGreaterThanOrEqual(5);

    const second = await spawnPortal(env);
    try {
      // Every token the server handed out before the crash still verifies: the signing
      // key it was made with was committed and survived, and the seeded admin was not re-created.
      for (const token of confirmed) {
        const me = await fetch(`${second.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(me.status).toBe(200);
      }
      expect((await adminLogin(second.url)).status).toBe(200);

      // A second process on the same embedded data folder would corrupt PGlite: refused.
      if (!process.env.POSTGRES_URL) {
        const third = spawnSync(process.execPath, [MAIN_PATH], { env, encoding: 'utf8', timeout: 30_000 });
        expect(third.status).toBe(2);
        expect(third.stderr).toContain(`Another Ledgerline process (pid ${second.child.pid}) is using the data folder`);
      }
    } finally {
      await second.stop();
    }
  }, 120_000);
});
