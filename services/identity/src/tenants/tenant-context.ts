import type { Response } from 'express';
import type { Database, SchemaDb } from '@ledgerline/kit/db/database.ts';
import { authOf, type AuthContext } from '@ledgerline/kit/http/authenticate.ts';
import { Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { TENANT_NOT_FOUND, type CompanyStore } from './company.store.ts';

export interface TenantRequest extends AuthContext {
  company: Company;
  db: SchemaDb;
}

/**
 * The active firm a request acts in (from the path, host or token) with a db handle on
 * its schema. An inactive or removed firm answers like an unknown one.
 */
export function tenantResolver(db: Database, companies: CompanyStore) {
  return async (res: Response): Promise<TenantRequest> => {
    const auth = authOf(res);
    if (!auth.tenant) throw new Invalid('Select a tenant first.');
    const company = await companies.findByShortName(auth.tenant);
    if (!company?.isActive) throw new NotFound(TENANT_NOT_FOUND);
    return { ...auth, company, db: db.forSchema(company.schemaName) };
  };
}
