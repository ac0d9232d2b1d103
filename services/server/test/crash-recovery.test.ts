import { describe, expect, it } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { adminLogin, portalTestEnv } from '../src/portal-harness.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

/** Starts the real entry point and resolves with its gateway URL from the start banner. */
function startChild(env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /open (http:\/\/localhost:\d+)\//.exec(out);
      if (m) resolve({ child, url: m[1]! });
    });
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('exit', (code) => reject(new Error(`portal exited with ${code} before starting:\n${out}`)));
  });
}

describe('crash recovery', () => {
  it('keeps everything committed before a SIGKILL in the middle of requests', async () => {
    const env = portalTestEnv();
    const first = await startChild(env);
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

    const second = await startChild(env);
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
        const third = spawnSync(process.execPath, [MAIN], { env, encoding: 'utf8', timeout: 30_000 });
        expect(third.status).toBe(2);
        expect(third.stderr).toContain(`Another Ledgerline process (pid ${second.child.pid}) is using the data folder`);
      }
    } finally {
      second.child.kill('SIGTERM');
      await new Promise((r) => second.child.once('exit', r));
    }
  }, 120_000);
});
