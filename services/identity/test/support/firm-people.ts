import { expect } from '@jest/globals';
import type { apiClient } from '@ledgerline/server/portal-harness.ts';

/** A person of a test firm: its short name, a handle (`admin`, `cpa`…), role id and client list. */
export type FirmPerson = [tenant: string, who: string, roleId: number, clientIds: number[] | null];

/** The username a test person signs in with: `{who}_{tenant}`. */
export const personName = (who: string, tenant: string): string => `${who}_${tenant}`;

/**
 * Creates the firms and their people through the gateway (as the platform admin) and signs each
 * person in with `password`; fills `ids` and `tokens`, keyed `{tenant}_{who}`.
 */
export async function seedFirmPeople(
  call: ReturnType<typeof apiClient>, adminToken: string, firms: readonly string[], people: readonly FirmPerson[], password: string,
  into: { ids: Record<string, number>; tokens: Record<string, string> },
): Promise<void> {
  for (const shortName of firms) {
    expect((await call('POST', '/api/companies', adminToken, { name: `${shortName} Tax`, shortName })).status).toBe(201);
  }
  for (const [tenant, who, roleId, clientIds] of people) {
    const username = personName(who, tenant);
    const r = await call<{ id: number }>('POST', `/api/${tenant}/users`, adminToken, { username, password, fullName: `${who} of ${tenant}`, roleId, clientIds, reportTypeIds: [] });
    expect(r.status).toBe(201);
    into.ids[`${tenant}_${who}`] = r.body.id;
    const signedIn = await call<{ token?: string }>('POST', `/api/${tenant}/auth/login`, null, { username, password });
    expect(signedIn.body.token).toBeDefined();
    into.tokens[`${tenant}_${who}`] = signedIn.body.token!;
  }
}
