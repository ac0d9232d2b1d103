import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { migratePlatform, migrateTenant } from '@ledgerline/kit/db/migrations.ts';
import { databaseTargets, type TestDatabase } from '@ledgerline/kit/db/test-databases.ts';
import { tablesOwnedBy } from '@ledgerline/kit/portability/service-tables.ts';
import { SERVICE_MODULES } from '../src/targets.ts';

/*
 * A firm export copies each service's tables as its migrations create them: every table of
 * a firm's schema must belong to exactly one service, or moving a firm would lose it (or
 * copy it twice). A table another change adds is covered without a list to update.
 */
describe.each(databaseTargets())('firm tables and their owners ($name)', (target) => {
  let scratch: TestDatabase;

  beforeAll(async () => {
    scratch = await target.open();
  });

  afterAll(async () => {
    await scratch.drop();
  });

  it('gives every table of a firm\'s schema to exactly one service', async () => {
    // As at start-up: the platform's tables first (a firm's migrations may refer to them).
    const sets = SERVICE_MODULES.flatMap((m) => m.migrations);
    await migratePlatform(scratch.db, sets);
    await migrateTenant(scratch.db, 'owners', sets);
    const { rows } = await scratch.db.query<{ name: string }>(
      "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'owners' AND tablename <> 'schema_migrations' ORDER BY 1");
    const owned = (await Promise.all(SERVICE_MODULES.map((m) => tablesOwnedBy(scratch.db, m.migrations)))).flat();
    expect([...owned].sort()).toEqual(rows.map((r) => r.name));
    expect(new Set(owned).size).toBe(owned.length);
  }, 120_000);
});
