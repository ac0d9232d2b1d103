import { describe, expect, it } from '@jest/globals';
import { createServer } from 'node:net';
import { servicePortEnv } from '../src/platform.config.ts';
import { spawnPortal, type PortalProcess } from '../src/portal-process.ts';
import { adminLogin, portalTestEnv } from '../src/portal-harness.ts';
import { SERVICE_MODULES } from '../src/targets.ts';

/** A port nothing listens on right now (the kernel's pick, released at once). */
const freePort = () => new Promise<number>((resolve, reject) => {
  const server = createServer();
  server.once('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    server.close(() => resolve(port));
  });
});

/**
 * The README's command, twice on one machine: the embedded default (no real servers), each
 * with its own PORT and data folder and no <NAME>_PORT, as a person would start them.
 */
function installationEnv(port: number): NodeJS.ProcessEnv {
  const env = portalTestEnv({ PORT: String(port), LOG_LEVEL: 'warn' });
  for (const name of ['POSTGRES_URL', 'AMQP_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'KEYCLOAK_URL']) delete env[name];
  for (const m of SERVICE_MODULES) delete env[servicePortEnv(m.name)];
  return env;
}

describe('two one-process installations on one machine', () => {
  it('start side by side on different PORTs and both answer through their own services', async () => {
    const ports = [await freePort(), await freePort()];
    const running: PortalProcess[] = [];
    try {
      // One after the other: before, the second failed on the services' fixed ports (8101-8111).
      for (const port of ports) running.push(await spawnPortal(installationEnv(port)));
      expect(running.map((p) => new URL(p.url).port)).toEqual(ports.map(String));
      for (const portal of running) {
        // A sign-in goes through the gateway to the identity service of the same installation.
        const login = await adminLogin(portal.url);
        expect(login.status).toBe(200);
        const { token } = (await login.json()) as { token: string };
        const me = await fetch(`${portal.url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } });
        expect(me.status).toBe(200);
      }
    } finally {
      for (const portal of running) await portal.stop();
    }
  }, 180_000);
});
