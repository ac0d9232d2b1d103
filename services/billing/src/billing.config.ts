import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { mailConfigSpec } from '@ledgerline/kit/mail/mail.config.ts';

export const billingConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each replica looks for due invoice reminders, recurring invoices and e-mails'),
  ...mailConfigSpec,
  publicBaseUrl: field('PUBLIC_BASE_URL', env.string('http://localhost:8080'), 'the portal\'s public URL: where links in e-mails point, and where Google sign-in ({this}/api/auth/google/callback/{clientId}) and card payments return'),
  stripeSecretKey: field('STRIPE_SECRET_KEY', env.optionalString(), 'Stripe secret key; unset: no online payment (invoices show the firm\'s bank details)'),
  stripeWebhookSecret: field('STRIPE_WEBHOOK_SECRET', env.optionalString(), 'signing secret of the Stripe webhook endpoint (whsec_…); required with STRIPE_SECRET_KEY'),
  stripeApiBaseUrl: field('STRIPE_API_BASE_URL', env.optionalString(), 'another Stripe API address (e.g. stripe-mock in tests); unset: Stripe\'s own'),
};

export type BillingConfig = ConfigOf<typeof billingConfigSpec>;
export const loadBillingConfig = (e: NodeJS.ProcessEnv): BillingConfig => loadConfig(billingConfigSpec, e);
