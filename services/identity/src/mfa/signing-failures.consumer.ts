import type { Bus, Subscription } from '@ledgerline/kit/bus/bus.ts';
import type { Database } from '@ledgerline/kit/db/database.ts';
import { tenantSchema } from '@ledgerline/kit/db/tenant-schema.ts';
import type { Logger } from '@ledgerline/kit/logger.ts';
import { consumeOnce } from '@ledgerline/kit/outbox/inbox.ts';
import { SIGNING_IDENTITY_FAILED, type SigningIdentityFailed } from '@ledgerline/contracts/signatures.contracts.ts';
import type { CompanyStore } from '../tenants/company.store.ts';
import type { UserStore } from '../users/user.store.ts';
import type { SecurityEventStore } from './security-event.store.ts';

const CONSUMER = 'identity.signing-identity-failures';

/**
 * A signer's failed identity check at signing (issue 41: a wrong e-mailed code or wrong
 * knowledge answers) and a lock-out are security events of the firm, in the same log as
 * failed sign-ins, with the signer, the request and the address: an Admin reviewing security
 * sees someone guessing at a taxpayer's prior-year AGI. A link signer has no account: the
 * event names them by name and e-mail.
 */
export function followSigningIdentityFailures(deps: { db: Database; bus: Bus; companies: CompanyStore; users: UserStore; events: SecurityEventStore; logger: Logger }): Promise<Subscription> {
  const { db, companies, users, events, logger } = deps;
  return deps.bus.subscribe(CONSUMER, [SIGNING_IDENTITY_FAILED], async (event) => {
    const company = event.tenant ? await companies.findByShortName(event.tenant) : null;
    if (!company) {
      logger.warn({ tenant: event.tenant }, `${SIGNING_IDENTITY_FAILED} for an unknown firm ignored`);
      return;
    }
    const p = event.payload as SigningIdentityFailed;
    await consumeOnce(db.forSchema(tenantSchema(company.schemaName)), CONSUMER, event, async (tx) => {
      const user = p.userId === null ? null : await users.find(tx, p.userId);
      const who = { userId: user ? p.userId : null, username: user?.username ?? p.signerEmail.slice(0, 254), address: p.address, browser: p.browser };
      const about = `signature request ${p.requestId} ("${p.title.slice(0, 200)}"), signer ${p.signerName.slice(0, 200)} <${p.signerEmail.slice(0, 254)}>`;
      await events.record(tx, { kind: 'signing-identity-failed', method: `wrong ${p.check.slice(0, 100)}: ${about}`, ...who });
      if (p.lockedOut) await events.record(tx, { kind: 'signing-locked-out', method: `${p.check.slice(0, 100)}: ${about}`, ...who });
    });
  });
}
