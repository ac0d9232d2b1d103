import type { Bus, Subscription } from '../bus/bus.ts';
import type { Database } from '../db/database.ts';
import { migrateTenant, tenantSchemasBehind, type ServiceMigrations } from '../db/migrations.ts';
import type { Logger } from '../logger.ts';
import { INTERNAL_TENANTS_PATH, TENANT_UPSERTED, type TenantEventPayload } from './tenant-events.ts';
import type { TenantMigrationGate } from './tenant-migration-gate.ts';

/** A running follower: `caughtUp` settles once every firm found behind at start is migrated (or failed and logged). */
export interface TenantSchemaFollower {
  caughtUp: Promise<void>;
  close(): Promise<void>;
}

/**
 * Keeps a service's tables present in every tenant schema: on start it finds the firms
 * identity knows whose schema is behind, closes them at `gate` and migrates them in the
 * background, one by one, opening each as it is done, so the service serves every other
 * firm at once; afterwards it migrates every firm a `tenant.upserted` event announces (so a
 * service that was down when a firm was created catches up by itself).
 */
export async function followTenantSchemas(options: {
  service: string;
  db: Database;
  bus: Bus;
  sets: readonly ServiceMigrations[];
  gate: TenantMigrationGate;
  identityUrl: () => string;
  logger: Logger;
}): Promise<TenantSchemaFollower | null> {
  const { service, db, bus, sets, gate, logger } = options;
  if (!sets.some((s) => s.scope === 'tenant')) return null;
  const migrate = async (tenant: Pick<TenantEventPayload, 'schemaName' | 'shortName'>) => {
    const actions = await migrateTenant(db, tenant.schemaName, sets);
    if (actions.length) logger.info({ schemaName: tenant.schemaName, actions }, 'tenant schema migrated');
    gate.opened(tenant.schemaName);
  };
  const subscription: Subscription = await bus.subscribe(`${service}.tenant-schemas`, [TENANT_UPSERTED], async (event) => {
    await migrate(event.payload as TenantEventPayload);
  });
  let behind: TenantEventPayload[] = [];
  try {
    const r = await fetch(`${options.identityUrl()}${INTERNAL_TENANTS_PATH}`, { signal: AbortSignal.timeout(10_000) });
    if (!r.ok) throw new Error(`identity answered ${r.status}`);
    const tenants = (await r.json()) as TenantEventPayload[];
    const names = new Set(await tenantSchemasBehind(db, tenants.map((t) => t.schemaName), sets));
    behind = tenants.filter((t) => names.has(t.schemaName));
    gate.close(behind);
    logger.info({ firms: tenants.length, behind: behind.length }, 'tenant schemas checked');
  } catch (err) {
    // Not fatal: events and identity's fan-out on refresh still bring the schemas.
    logger.warn({ err: String(err) }, 'could not list tenants to migrate at start');
  }
  let stopping = false;
  const caughtUp = (async () => {
    const started = Date.now();
    for (const tenant of behind) {
      if (stopping) return;
      // A firm that fails stays closed (its tables are not what the code expects); the next
      // `tenant.upserted`, or the platform admin's "Refresh schema", migrates and opens it.
      await migrate(tenant).catch((err: unknown) => logger.error({ err, schemaName: tenant.schemaName }, 'tenant schema migration failed'));
    }
    if (behind.length) logger.info({ migrated: behind.length, ms: Date.now() - started, stillClosed: gate.progress().pending }, 'tenant schemas caught up');
  })();
  return {
    caughtUp,
    close: async () => {
      stopping = true;
      await caughtUp;
      await subscription.close();
    },
  };
}
