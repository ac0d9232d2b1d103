import { describe, expect, it } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { MAIN_PATH, spawnPortal } from '../src/portal-process.ts';
import { adminLogin, portalTestEnv } from '../src/portal-harness.ts';

describe('crash recovery', () => {
  it('keeps everything committed before a SIGKILL in the middle of requests', async () => {
    // Warnings and errors of the child end up in the failure message if it misbehaves.
    const env = portalTestEnv({ LOG_LEVEL: 'warn' });
    const first = await spawnPortal(env);
    const confirmed: string[] = [];
    const refused: number[] = [];
    let settled = 0;
    // A burst of logins; the process is killed while some are still in flight.
    const burst = Array.from({ length: 40 }, async () => {
      try {
        const r = await adminLogin(first.url);
        if (r.ok) confirmed.push(((await r.json()) as { token: string }).token);
        else refused.push(r.status);
      } catch {
        // Cut off by the kill: the client never saw a success, so nothing was promised.
      } finally {
        settled++;
      }
    });
    while (confirmed.length < 5 && settled < burst.length) await new Promise((r) => setTimeout(r, 20));
    const exited = new Promise((r) => first.child.once('exit', r));
    first.child.kill('SIGKILL');
    await Promise.all([exited, ...burst]);
    expect({ confirmedAtLeast5: confirmed.length >= 5, refused }).toEqual({ confirmedAtLeast5: true, refused: [] });

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
