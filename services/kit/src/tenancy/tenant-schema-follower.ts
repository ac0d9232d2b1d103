import type { Bus, Subscription } from '../bus/bus.ts';
import type { Database } from '../db/database.ts';
import { migrateTenant, migrateTenants, type ServiceMigrations } from '../db/migrations.ts';
import type { Logger } from '../logger.ts';
import { INTERNAL_TENANTS_PATH, TENANT_UPSERTED, type TenantEventPayload } from './tenant-events.ts';

/**
 * Keeps a service's tables present in every tenant schema: on start it migrates every
 * firm identity knows, and afterwards every firm a `tenant.upserted` event announces
 * (so a service that was down when a firm was created catches up by itself).
 */
export async function followTenantSchemas(options: {
  service: string;
  db: Database;
  bus: Bus;
  sets: readonly ServiceMigrations[];
  identityUrl: () => string;
  logger: Logger;
}): Promise<Subscription | null> {
  const { service, db, bus, sets, logger } = options;
  if (!sets.some((s) => s.scope === 'tenant')) return null;
  const migrate = async (schemaName: string) => {
    const actions = await migrateTenant(db, schemaName, sets);
    if (actions.length) logger.info({ schemaName, actions }, 'tenant schema migrated');
  };
  const subscription = await bus.subscribe(`${service}.tenant-schemas`, [TENANT_UPSERTED], async (event) => {
    await migrate((event.payload as TenantEventPayload).schemaName);
  });
  try {
    const r = await fetch(`${options.identityUrl()}${INTERNAL_TENANTS_PATH}`, { signal: AbortSignal.timeout(10_000) });
    if (!r.ok) throw new Error(`identity answered ${r.status}`);
    const tenants = (await r.json()) as TenantEventPayload[];
    const started = Date.now();
    const migrated = await migrateTenants(db, tenants.map((t) => t.schemaName), sets);
    for (const [schemaName, actions] of migrated) logger.info({ schemaName, actions }, 'tenant schema migrated');
    logger.info({ firms: tenants.length, migrated: migrated.size, ms: Date.now() - started }, 'tenant schemas checked');
  } catch (err) {
    // Not fatal: events and identity's fan-out on refresh still bring the schemas.
    logger.warn({ err: String(err) }, 'could not list tenants to migrate at start');
  }
  return subscription;
}
