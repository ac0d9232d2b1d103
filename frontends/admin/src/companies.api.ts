import type { Company, CompanyInput, Role } from '@ledgerline/contracts/identity.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import type { FirstAdmin } from './tenant-form.model.ts';

// Companies are platform-wide: their calls never take a tenant prefix.
const COMPANIES_URL = '/api/companies';

export const createCompany = (input: CompanyInput): Promise<Company> => apiJson('POST', COMPANIES_URL, input);

export const updateCompany = (id: number, input: CompanyInput): Promise<Company> => apiJson('PUT', `${COMPANIES_URL}/${id}`, input);

export const deleteCompany = (id: number): Promise<unknown> => apiJson('DELETE', `${COMPANIES_URL}/${id}`);

/** Re-runs every service's pending migrations in the firm's schema; returns the actions applied. */
export async function refreshCompanySchema(id: number): Promise<string[]> {
  const reply = await apiJson<{ refreshResult: { actions: string[] } }>('POST', `${COMPANIES_URL}/${id}/schema/refresh`);
  return reply.refreshResult.actions;
}

/** The toast text after a schema refresh (spec 000 §8). */
export function schemaRefreshSummary(actions: readonly string[]): string {
  return actions.length > 0 ? `${actions.length} schema updates applied.` : 'Schema is already up to date.';
}

/**
 * The firm's first Admin, with the platform administrator's token through the firm's own
 * users call (the token names no firm, so the path does): without one, nobody could sign
 * in to a new firm.
 */
export async function createFirstAdmin(company: Company, admin: FirstAdmin): Promise<void> {
  const tenant = { tenant: company.shortName };
  const roles = await apiJson<Role[]>('GET', apiPath('roles', tenant));
  const adminRole = roles.find((role) => role.name.toLowerCase() === 'admin');
  if (!adminRole) throw new Error(`${company.name} has no Admin role.`);
  await apiJson('POST', apiPath('users', tenant), { ...admin, roleId: adminRole.id, clientIds: null, reportTypeIds: null });
}
