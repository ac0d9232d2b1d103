import type { Bus, EventEnvelope, Subscription } from '../bus/bus.ts';
import type { Database, Queryable } from '../db/database.ts';
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
    const tenant = event.tenant ? await deps.tenants.find(event.tenant) : null;
    if (!tenant) {
      deps.logger.warn({ consumer, type: event.type, tenant: event.tenant }, 'event for an unknown firm ignored');
      return;
    }
    await consumeOnce(deps.db.forSchema(tenantSchema(tenant.schemaName)), consumer, event, (tx) => handle(tx, event, tenant));
  });
}
