import type { Bus, EventEnvelope, Subscription } from '../bus/bus.ts';
import type { Database, Queryable, SchemaDb } from '../db/database.ts';
import { tenantSchema } from '../db/tenant-schema.ts';
import type { Logger } from '../logger.ts';
import type { TenantEventPayload } from '../tenancy/tenant-events.ts';
import type { TenantRegistry } from '../tenancy/tenant-registry.ts';
import { consumeOnce } from './inbox.ts';

export interface TenantConsumerDeps {
  db: Database;
  bus: Bus;
  logger: Logger;
  tenants: TenantRegistry;
}

/**
 * The firm an event names and its schema, or null (logged) when the registry does not know
 * it (removed, or never existed): there is no schema to write into, and redelivering the
 * event would not change that, so it is acknowledged.
 */
export async function eventTenant(deps: TenantConsumerDeps, consumer: string, event: EventEnvelope): Promise<{ tenant: TenantEventPayload; db: SchemaDb } | null> {
  const tenant = event.tenant ? await deps.tenants.find(event.tenant) : null;
  if (!tenant) {
    deps.logger.warn({ consumer, type: event.type, tenant: event.tenant }, 'event for an unknown firm ignored');
    return null;
  }
  return { tenant, db: deps.db.forSchema(tenantSchema(tenant.schemaName)) };
}

/**
 * Consumes another service's events about one firm into that firm's schema, each event
 * once (inbox) and in one transaction with the handler's writes. An event naming a firm
 * the registry does not know (removed, or never existed) is acknowledged with a warning:
 * there is no schema to write into, and redelivering it would not change that.
 */
export function consumeTenantEvents(
  deps: TenantConsumerDeps,
  consumer: string,
  types: readonly string[],
  handle: (tx: Queryable, event: EventEnvelope, tenant: TenantEventPayload) => Promise<void>,
): Promise<Subscription> {
  return deps.bus.subscribe(consumer, types, async (event) => {
    const target = await eventTenant(deps, consumer, event);
    if (target) await consumeOnce(target.db, consumer, event, (tx) => handle(tx, event, target.tenant));
  });
}
