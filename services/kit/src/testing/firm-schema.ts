import type { Database, SchemaDb } from '../db/database.ts';
import { migratePlatform, migrateTenant, type ServiceMigrations } from '../db/migrations.ts';
import type { DatabaseTarget, TestDatabase } from '../db/test-databases.ts';
import { outboxMigrations } from '../outbox/outbox.migrations.ts';
import { jobDueIndexMigrations } from '../scheduler/job-queue.ts';

/**
 * One firm's schema in a fresh scratch database of `target`, for suites that drive a
 * service's store and scheduler directly: migrated as start-up does, the platform's outbox
 * and due-job index first (firm tables and jobs refer to them), then `tenantSets`. Sets
 * `tenant.schema`, which the suite's scheduler lists the firm by.
 */
export async function openFirmSchema(
  target: DatabaseTarget, tenant: { shortName: string; schema: string }, tenantSets: readonly ServiceMigrations[],
): Promise<{ scratch: TestDatabase; db: Database; firmDb: SchemaDb }> {
  const scratch = await target.open();
  tenant.schema = `t_${tenant.shortName}`;
  await migratePlatform(scratch.db, [outboxMigrations, jobDueIndexMigrations]);
  await migrateTenant(scratch.db, tenant.schema, tenantSets);
  return { scratch, db: scratch.db, firmDb: scratch.db.forSchema(tenant.schema) };
}
