import type { Bus, Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { CLIENT_DELETED, type ClientDeletedEvent } from '@ledgerline/contracts/directory.contracts.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import { userEvent } from './user.service.ts';
import type { UserStore } from './user.store.ts';

const CONSUMER = 'identity.client-deleted';

/**
 * A deleted client leaves every user's client-access list (spec §3: "removed when the
 * user or client is removed"). Each changed user is announced again, so the other
 * services' access read models drop the client too.
 */
export function followClientDeletions(deps: { db: Database; bus: Bus; companies: CompanyStore; users: UserStore; logger: Logger }): Promise<Subscription> {
  const { db, companies, users, logger } = deps;
  return deps.bus.subscribe(CONSUMER, [CLIENT_DELETED], async (event) => {
    const company = event.tenant ? await companies.findByShortName(event.tenant) : null;
    if (!company) {
      logger.warn({ tenant: event.tenant }, 'client.deleted for an unknown firm ignored');
      return;
    }
    const { id: clientId } = event.payload as ClientDeletedEvent;
    await consumeOnce(db.forSchema(tenantSchema(company.schemaName)), CONSUMER, event, async (tx) => {
      const changed = await users.removeClient(tx, clientId);
      const updated = await Promise.all(changed.map((id) => users.get(tx, id)));
      await enqueueEvents(tx, updated.map((user) => userEvent(company.shortName, user)));
    });
  });
}
