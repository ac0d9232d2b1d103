import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLIENT_ADDRESS_HEADER } from '@ledgerline/kit/service-module.ts';
import { startTestPortal } from '../src/portal-harness.ts';
import type { RunningPortal } from '../src/portal.ts';

/*
 * The per-IP login throttle sees the address the gateway determined: with no trusted
 * proxy configured, a client rotating X-Forwarded-For (or sending the gateway's own
 * header) is still one client.
 */
let portal: RunningPortal & { gatewayUrl: string };
beforeAll(async () => { portal = await startTestPortal({ LOGIN_MAX_FAILURES_PER_IP: '3' }); }, 60_000);
afterAll(async () => { await portal.stop(); });

describe('client address behind the gateway', () => {
  it('throttles failed logins per client even when each claims another address', async () => {
    const attempt = async (i: number) => {
      const r = await fetch(`${portal.gatewayUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}`, [CLIENT_ADDRESS_HEADER]: `198.51.100.${i}` },
        body: JSON.stringify({ username: `nobody-${i}`, password: 'wrong-password' }),
      });
      return r.status;
    };
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i++) statuses.push(await attempt(i));
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });
});
