import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { MAIL_JOB, mailJob } from '@ledgerline/kit/mail/mail-job.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { firmTimeZone } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { asClientDateCountry, firmCountryFromZone } from '@ledgerline/contracts/client-date.ts';
import { FIRM_COUNTRY_FACTS } from '@ledgerline/contracts/firm-country.ts';
import { loadBillingConfig, type BillingConfig } from './billing.config.ts';
import { createPaymentsRouter, invoicePageUrl, STRIPE_WEBHOOK_PATH } from './http/payments.router.ts';
import type { PaymentProvider } from './payments/payment-provider.ts';
import { StripeProvider } from './payments/stripe-provider.ts';
import { billingTenantMigrations } from './billing.migrations.ts';
import { createBillingRouter } from './http/billing.router.ts';
import { InvoiceService, type BillingFirm } from './invoices/invoice.service.ts';
import { InvoiceStore } from './invoices/invoice.store.ts';
import { InvoiceNotices } from './invoices/invoice-notices.ts';
import { followInvoicePushes } from './invoices/invoice-push.consumer.ts';
import { InvoiceReminders } from './invoices/invoice-reminders.ts';
import { RecurringInvoices } from './invoices/recurring-invoices.ts';
import { createRecurringRouter } from './http/recurring.router.ts';

const userAccess = createUserAccessReadModel('billing');

/** Stripe when its key is set (with the webhook's signing secret, or the start fails), else none. */
function paymentProvider(config: BillingConfig): PaymentProvider | null {
  if (!config.stripeSecretKey) return null;
  if (!config.stripeWebhookSecret) throw new Error('STRIPE_WEBHOOK_SECRET is required with STRIPE_SECRET_KEY: without it no payment could be confirmed');
  return new StripeProvider({ secretKey: config.stripeSecretKey, webhookSecret: config.stripeWebhookSecret, apiBaseUrl: config.stripeApiBaseUrl });
}
const directory = createDirectoryReadModel('billing');
const jobs = createJobQueue('billing');

/**
 * Invoices and payments (issue 43): the firm's price list, invoices numbered when sent, tax
 * as each jurisdiction requires it, payments staff record, and the receivables' ageing.
 */
export const billingModule: ServiceModule = {
  name: 'billing',
  defaultPort: 8115,
  apiResources: ['billing', 'invoices'],
  migrations: [billingTenantMigrations, userAccess.migrations, directory.migrations, jobs.migrations, jobs.dueIndexMigrations],
  async init(deps) {
    const config = loadBillingConfig(deps.env);
    const api = new ApiRegistry('billing');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants, registry } = runtime;
    const firm = async (shortName: string): Promise<BillingFirm> => {
      const f = await registry.find(shortName);
      if (!f) throw new NotFound('Tenant not found');
      const timeZone = firmTimeZone(f);
      // The firm's country as its console sets it (issue 44); a firm without one, by its zone.
      const country = asClientDateCountry(f.country) ?? firmCountryFromZone(timeZone);
      return { name: f.name, country, currency: FIRM_COUNTRY_FACTS[country].currency, timeZone };
    };
    const store = new InvoiceStore();
    const provider = paymentProvider(config);
    const notices = new InvoiceNotices({ jobs, userAccess, invoiceUrl: (tenant, id) => invoicePageUrl(config.publicBaseUrl, tenant, id) });
    const reminders = new InvoiceReminders({ store, jobs, notices, firm, onlinePayments: provider !== null });
    const service = new InvoiceService({ store, firm, directory: new DirectoryLookup(directory, peer('directory')), notices, reminders, onlinePayments: provider !== null });
    const recurring = new RecurringInvoices({ store, service, jobs, firm, logger: deps.logger });
    const mailer = createMailer(config, deps.logger);
    deps.logger.info({ provider: provider?.name ?? 'none' }, provider ? 'online payment through Stripe' : 'no payment provider: invoices show the firm\'s bank details');
    return {
      api,
      rawBodyPaths: [STRIPE_WEBHOOK_PATH],
      routers: [
        createBillingRouter({
          api, tokens: deps.tokens, tenants, store, service, firm, onlinePayments: provider !== null,
          payOnlineUrl: provider ? (tenant, invoice) => invoicePageUrl(config.publicBaseUrl, tenant, invoice.id) : undefined,
        }),
        createRecurringRouter({ api, tokens: deps.tokens, tenants, recurring }),
        createPaymentsRouter({ api, tokens: deps.tokens, tenants, service, firm, provider, logger: deps.logger, publicBaseUrl: config.publicBaseUrl }),
      ],
      start: () => runtime.start({
        follow: [(c) => userAccess.follow(c), (c) => directory.follow(c), (c) => followInvoicePushes({ ...c, userAccess, emitter: deps.realtime.emitter })],
        scheduler: { queue: jobs, handlers: { ...reminders.handlers(), ...recurring.handlers(), [MAIL_JOB]: mailJob(mailer) }, pollMs: config.schedulerPollMs },
      }),
      async stop() {
        await runtime.stop();
        mailer.close();
      },
    };
  },
};
