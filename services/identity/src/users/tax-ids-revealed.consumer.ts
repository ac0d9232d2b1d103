import type { Bus, Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { CLIENT_TAX_IDS_REVEALED, type ClientTaxIdsRevealedEvent } from '@ledgerline/contracts/directory.contracts.ts';
import type { SecurityEventStore } from '../mfa/security-event.store.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from './user.store.ts';

const CONSUMER = 'identity.tax-ids-revealed';

/**
 * A user shown a client's whole tax IDs (the directory's reveal call) is a security event of
 * the firm (issue 40), in the same log as sign-ins and factor changes, so an Admin reviewing
 * security sees who looked at which client's numbers.
 */
export function followTaxIdReveals(deps: { db: Database; bus: Bus; companies: CompanyStore; users: UserStore; events: SecurityEventStore; logger: Logger }): Promise<Subscription> {
  const { db, companies, users, events, logger } = deps;
  return deps.bus.subscribe(CONSUMER, [CLIENT_TAX_IDS_REVEALED], async (event) => {
    const company = event.tenant ? await companies.findByShortName(event.tenant) : null;
    if (!company) {
      logger.warn({ tenant: event.tenant }, 'client.tax-ids-revealed for an unknown firm ignored');
      return;
    }
    const p = event.payload as ClientTaxIdsRevealedEvent;
    await consumeOnce(db.forSchema(tenantSchema(company.schemaName)), CONSUMER, event, async (tx) => {
      const user = p.userId === null ? null : await users.find(tx, p.userId);
      await events.record(tx, {
        kind: 'tax-ids-revealed', userId: p.userId, username: user?.username ?? null,
        method: `client ${p.clientId} (${p.clientName.slice(0, 200)}): ${p.types.join(', ') || 'none'}`,
      });
    });
  });
}
