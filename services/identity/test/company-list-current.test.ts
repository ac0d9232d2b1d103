import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { migratePlatform } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { identityPlatformMigrations } from '../src/identity.migrations.ts';
import { CompanyStore } from '../src/tenants/company.store.ts';

/*
 * Identity's scheduler and the firm-list pollers ask for the list every few seconds (issue 45):
 * while nothing changed that costs the one-row version read, whatever the number of firms.
 */
describe.each(databaseTargets())('the current firm list ($name)', (target) => {
  let scratch: TestDatabase;
  let statements: string[];
  let companies: CompanyStore;

  beforeAll(async () => {
    scratch = await target.open();
    await migratePlatform(scratch.db, [identityPlatformMigrations]);
    statements = [];
    const counted: Database = { ...scratch.db, query: (text, params) => { statements.push(text); return scratch.db.query(text, params); } } as Database;
    companies = new CompanyStore(counted, 'UTC');
  });
  afterAll(async () => { await scratch.drop(); });

  const firm = (shortName: string) => ({
    name: shortName, shortName, schemaName: shortName, customDomain: null, customSubdomain: null, urlPattern: 'path' as const, isActive: true,
  });

  it('reads the whole list once, then only the version until a firm changes', async () => {
    await companies.insert(scratch.db, firm('first'));
    const first = await companies.current();
    expect(first.list.map((c) => c.shortName)).toEqual(['first']);
    statements.length = 0;
    for (let i = 0; i < 5; i++) expect(await companies.current()).toBe(first);
    expect(statements).toHaveLength(5);
    expect(statements.every((s) => s.includes('tenant_list_version'))).toBe(true);

    await companies.insert(scratch.db, firm('second'));
    const second = await companies.current();
    expect(second.version).not.toBe(first.version);
    expect(second.list.map((c) => c.shortName).sort()).toEqual(['first', 'second']);
    const [row] = second.list.filter((c) => c.shortName === 'first');
    await companies.update(scratch.db, row!.id, { ...firm('first'), isActive: false });
    expect((await companies.current()).list.find((c) => c.shortName === 'first')?.isActive).toBe(false);
  });
});
