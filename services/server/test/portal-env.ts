import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Env for a portal started by a test: every port ephemeral, a fresh data folder, the
 * real servers of the surrounding environment (CI exports them) passed through.
 */
export function portalTestEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const passThrough = ['POSTGRES_URL', 'AMQP_URL', 'S3_ENDPOINT', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'S3_BUCKET', 'PATH', 'HOME', 'CI'];
  const env: NodeJS.ProcessEnv = { NODE_ENV: 'test', LOG_LEVEL: 'silent' };
  for (const name of passThrough) if (process.env[name]) env[name] = process.env[name];
  return {
    ...env,
    PORTAL_DATA_DIR: mkdtempSync(join(tmpdir(), 'portal-test-')),
    PORT: '0',
    IDENTITY_PORT: '0',
    GATEWAY_HOST: '127.0.0.1',
    PORTAL_ADMIN_USERNAME: 'platform-admin',
    PORTAL_ADMIN_PASSWORD: 'admin-secret-1',
    ...extra,
  };
}

export async function adminLogin(gatewayUrl: string, password = 'admin-secret-1'): Promise<Response> {
  return fetch(`${gatewayUrl}/api/admin/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'platform-admin', password }),
  });
}
