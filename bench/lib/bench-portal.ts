import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { servicePortEnv, serviceUrlEnv } from '@ledgerline/server/platform.config.ts';
import { spawnPortal, spawnService, type PortalProcess } from '@ledgerline/server/portal-process.ts';
import { SERVICE_MODULES } from '@ledgerline/server/targets.ts';

export interface BenchPortal {
  url: string;
  /** The files service's own port (no gateway in between). */
  filesUrl: string;
  /** The process running every service (split mode), whose memory a benchmark may watch. */
  servicesPid: number | undefined;
  gatewayPid: number | undefined;
  /** Its data folder: a later start on the same one finds the same installation. */
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * The product as deployed for a benchmark: every service in one child process on fixed
 * ports (creating a firm migrates every service's tables, so all must run) and the
 * gateway in another (`split`, default), or everything in one process (`all`).
 */
export async function startBenchPortal(options: { mode: 'split' | 'all'; firstPort: number; extraEnv?: Record<string, string>; dataPrefix: string; dataDir?: string }): Promise<BenchPortal> {
  const ports = Object.fromEntries(SERVICE_MODULES.map((m, i) => [m.name, options.firstPort + i]));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'warn',
    PORTAL_DATA_DIR: options.dataDir ?? process.env.PORTAL_DATA_DIR ?? mkdtempSync(join(tmpdir(), options.dataPrefix)),
    PORT: '0',
    PORTAL_ADMIN_USERNAME: 'bench-admin',
    PORTAL_ADMIN_PASSWORD: 'bench-secret',
    GATEWAY_RATE_LIMIT_PER_MINUTE: '100000000',
    ...Object.fromEntries(SERVICE_MODULES.flatMap((m) => [[servicePortEnv(m.name), String(ports[m.name])], [serviceUrlEnv(m.name), `http://127.0.0.1:${ports[m.name]}`]])),
    ...options.extraEnv,
  };
  const services = options.mode === 'split'
    ? await spawnService(env, SERVICE_MODULES.map((m) => m.name).join(','), Object.values(ports))
    : null;
  let gateway: PortalProcess;
  try {
    gateway = await spawnPortal(env, options.mode === 'split' ? ['--target=gateway'] : []);
  } catch (err) {
    await services?.stop();
    throw err;
  }
  return {
    url: gateway.url,
    filesUrl: `http://127.0.0.1:${ports.files}`,
    servicesPid: services ? services.child.pid : gateway.child.pid,
    gatewayPid: gateway.child.pid,
    dataDir: env.PORTAL_DATA_DIR!,
    stop: async () => {
      await gateway.stop();
      await services?.stop();
    },
  };
}
