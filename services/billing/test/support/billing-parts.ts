import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { InvoiceNotices } from '../../src/invoices/invoice-notices.ts';
import { InvoiceReminders } from '../../src/invoices/invoice-reminders.ts';
import { InvoiceService, type BillingFirm } from '../../src/invoices/invoice.service.ts';
import { InvoiceStore } from '../../src/invoices/invoice.store.ts';

/**
 * Billing's own parts wired as the module wires them, without online payments, for the suites
 * that drive them on the durable scheduler (reminders, recurring invoices). The directory is
 * never asked on those paths (no user to ask with: an invoice carries its client's details),
 * so it points nowhere.
 */
export function billingParts(firm: BillingFirm) {
  const jobs = createJobQueue('billing');
  const userAccess = createUserAccessReadModel('billing');
  const store = new InvoiceStore();
  const notices = new InvoiceNotices({ jobs, userAccess, invoiceUrl: (t, id) => `https://portal.example/${t}/invoices/${id}` });
  const reminders = new InvoiceReminders({ store, jobs, notices, firm: async () => firm, onlinePayments: false });
  const service = new InvoiceService({
    store, firm: async () => firm, directory: new DirectoryLookup(createDirectoryReadModel('billing'), () => 'http://127.0.0.1:9'), notices, reminders, onlinePayments: false,
  });
  return { jobs, userAccess, store, notices, reminders, service };
}
