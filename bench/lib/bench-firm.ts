import type { jsonCaller } from './bench-client.ts';

/** A firm user the bench acts as: its id and a signed-in token. */
export interface BenchUser { id: number; token: string }

/**
 * A firm for a benchmark, made through the API as a platform administrator would: the firm,
 * `clients` clients, and `user()` to add a user (role, client access) and sign them in.
 * The portal's platform administrator is bench-admin (bench/lib/bench-portal.ts).
 */
export async function benchFirm(call: ReturnType<typeof jsonCaller>, firm: { name: string; shortName: string }, clients: number) {
  const platform = (await call<{ token: string }>('POST', '/api/admin/auth/login', { username: 'bench-admin', password: 'bench-secret' })).token;
  const { schemaName } = await call<{ schemaName: string }>('POST', '/api/companies', firm, platform);
  // Services re-read the firm list at most every second: a firm made this instant may be missed.
  await new Promise((r) => setTimeout(r, 1500));
  const tenant = firm.shortName;
  const clientIds: number[] = [];
  for (let i = 0; i < clients; i++) {
    const c = await call<{ id: number }>('POST', `/api/${tenant}/clients`, {
      name: `Bench Client ${i}`, address: '1 Main Street', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ST-1', email: `c${i}@example.com`,
    }, platform);
    clientIds.push(c.id);
  }
  const user = async (username: string, roleId: number, clientAccess: number[] | null): Promise<BenchUser> => {
    const u = await call<{ id: number }>('POST', `/api/${tenant}/users`, { username, password: 'password1', fullName: username, roleId, clientIds: clientAccess }, platform);
    const { token } = await call<{ token: string }>('POST', `/api/${tenant}/auth/login`, { username, password: 'password1' });
    return { id: u.id, token };
  };
  return { platform, schemaName, clientIds, user };
}
