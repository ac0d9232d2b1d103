import type { UserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { usersReaching } from '@ledgerline/kit/access/users-reaching.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import type { RealtimeEmitter } from '@ledgerline/kit/realtime/realtime-emitter.ts';
import { userRoom } from '@ledgerline/kit/realtime/realtime-rooms.ts';
import { INVOICE_CHANGED, INVOICE_PUSH, type InvoiceChanged, type InvoicePush } from '@ledgerline/contracts/billing.contracts.ts';

/**
 * An invoice sent, paid (in full or in part) or voided, pushed to the user rooms of those who
 * reach its client (Admin and DTA, staff with the client in their list, the client's own
 * users), never to a firm room, which holds other clients' users too. From the outbox event,
 * so a payment the provider's webhook records pushes like one staff record.
 */
export function followInvoicePushes(deps: TenantConsumerDeps & { userAccess: UserAccessReadModel; emitter: RealtimeEmitter }): Promise<Subscription> {
  return consumeTenantEvents(deps, 'billing.push', [INVOICE_CHANGED], async (tx, event, tenant) => {
    const c = event.payload as InvoiceChanged;
    const push: InvoicePush = { invoiceId: c.invoiceId, number: c.number, clientId: c.clientId, action: c.action, status: c.status, balance: c.balance, currency: c.currency };
    for (const user of await usersReaching(tx, deps.userAccess.table, c.clientId)) {
      deps.emitter.emit(userRoom(tenant.shortName, user.userId), INVOICE_PUSH, push);
    }
  });
}
