import type { Bus, Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { newEvent } from '@ledgerline/kit/bus/bus.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { enqueueEvents } from '@ledgerline/kit/outbox/outbox.ts';
import { CLIENT_DELETED, type ClientDeletedEvent } from '@ledgerline/contracts/directory.contracts.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { IdentityProvider } from '../providers/identity-provider.ts';
import { USER_DELETED, userEvent } from './user.service.ts';
import type { UserStore } from './user.store.ts';

const CONSUMER = 'identity.client-deleted';

/**
 * A deleted client leaves every user's client-access list (spec §3: "removed when the
 * user or client is removed"), and its own Client users are deleted with it (spec 000 §8's
 * confirmation: "This will also delete all associated files and users"): an account of a
 * company the firm no longer serves could only ever see nothing. Staff keep their accounts.
 * Each changed or deleted user is announced, so the other services' read models follow.
 */
export function followClientDeletions(deps: { db: Database; bus: Bus; companies: CompanyStore; users: UserStore; provider: IdentityProvider; logger: Logger }): Promise<Subscription> {
  const { db, companies, users, provider, logger } = deps;
  return deps.bus.subscribe(CONSUMER, [CLIENT_DELETED], async (event) => {
    const company = event.tenant ? await companies.findByShortName(event.tenant) : null;
    if (!company) {
      logger.warn({ tenant: event.tenant }, 'client.deleted for an unknown firm ignored');
      return;
    }
    const { id: clientId } = event.payload as ClientDeletedEvent;
    const deleted: string[] = [];
    await consumeOnce(db.forSchema(tenantSchema(company.schemaName)), CONSUMER, event, async (tx) => {
      const own = await users.clientUsersOf(tx, clientId);
      for (const id of own) deleted.push((await users.delete(tx, company.schemaName, id)).username);
      const changed = (await users.removeClient(tx, clientId)).filter((id) => !own.includes(id));
      const updated = await Promise.all(changed.map((id) => users.get(tx, id)));
      await enqueueEvents(tx, [
        ...own.map((id, index) => newEvent(USER_DELETED, company.shortName, { id, username: deleted[index] })),
        ...updated.map((user) => userEvent(company.shortName, user)),
      ]);
    });
    // After the commit, as a user's own deletion does; the rows are gone already, so a
    // provider account left behind (Keycloak unreachable) can no longer sign in here.
    for (const username of deleted) {
      await provider.deleteUser(company.shortName, username).catch((error: unknown) => logger.warn({ err: error, username }, 'could not delete the provider account of a deleted client user'));
    }
  });
}
