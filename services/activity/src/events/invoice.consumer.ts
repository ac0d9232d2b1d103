import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { consumeTenantEvents, type TenantConsumerDeps } from '@ledgerline/kit/outbox/tenant-consumer.ts';
import { INVOICE_CHANGED, type InvoiceAction, type InvoiceChanged } from '@ledgerline/contracts/billing.contracts.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import type { ActivityLogStore } from '../logs/activity-log.store.ts';

export const INVOICE_CONSUMER = 'activity.invoices';

const money = (c: InvoiceChanged, n: number) => formatMinorUnits(n, c.currency);

/** What each change of an invoice says in the log. */
const DETAILS: Record<InvoiceAction, (c: InvoiceChanged) => string> = {
  sent: (c) => `Sent invoice ${c.number} for ${money(c, c.total)}`,
  paid: (c) => `Invoice ${c.number} paid in full${c.payment ? ` (${money(c, c.payment.amount)} received)` : ''}`,
  partially_paid: (c) => `Invoice ${c.number} paid in part: ${c.payment ? `${money(c, c.payment.amount)} received, ` : ''}${money(c, c.balance)} still due`,
  voided: (c) => `Voided invoice ${c.number}`,
};

/**
 * Invoices in the activity log (issue 43), as `update` entries about the invoice's client:
 * its staff and its own users read them (the client sees its invoices once sent), another
 * client's users never do.
 */
export function followInvoices(deps: TenantConsumerDeps & { logs: ActivityLogStore }): Promise<Subscription> {
  return consumeTenantEvents(deps, INVOICE_CONSUMER, [INVOICE_CHANGED], async (tx, event) => {
    const c = event.payload as InvoiceChanged;
    const details = DETAILS[c.action];
    if (!details) return;
    await deps.logs.record(tx, {
      action: 'update', userId: c.actorId, userName: c.actorName, clientId: c.clientId, clientName: c.clientName, timestamp: event.occurredAt,
      fileId: null, fileName: null, address: null, userAgent: null, details: details(c),
    });
  });
}
