import Stripe from 'stripe';
import { Invalid } from '@ledgerline/kit/errors.ts';
import type { CheckoutRequest, PaymentProvider, ProviderPayment } from './payment-provider.ts';

/** How old a signed delivery may be (Stripe's own default): an older one is a replay. */
const SIGNATURE_TOLERANCE_SECONDS = 300;
export const SIGNATURE_REFUSED = 'Webhook signature verification failed';

/**
 * Stripe through its `stripe` package: a Checkout Session per payment (card, and US bank
 * debit for dollar invoices), and webhooks verified with the endpoint's signing secret.
 * `checkout.session.completed` with payment_status 'paid' (cards) and
 * `checkout.session.async_payment_succeeded` (bank debit, days later) report a payment; the
 * session's metadata names the firm and invoice it was made for.
 */
export class StripeProvider implements PaymentProvider {
  readonly name = 'stripe';
  readonly #stripe: Stripe;
  readonly #webhookSecret: string;

  constructor(options: { secretKey: string; webhookSecret: string; apiBaseUrl?: string }) {
    const base = options.apiBaseUrl ? new URL(options.apiBaseUrl) : null;
    this.#stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      ...(base ? { host: base.hostname, port: base.port || (base.protocol === 'https:' ? 443 : 80), protocol: base.protocol === 'https:' ? 'https' : 'http' } : {}),
    });
    this.#webhookSecret = options.webhookSecret;
  }

  async createCheckout(r: CheckoutRequest): Promise<{ url: string; reference: string }> {
    const session = await this.#stripe.checkout.sessions.create({
      mode: 'payment',
      // A filter on what the account has enabled (this API version has no fixed list): cards, and US bank debit on dollar invoices.
      allowed_payment_method_types: r.currency === 'USD' ? ['card', 'us_bank_account'] : ['card'],
      line_items: [{
        quantity: 1,
        price_data: { currency: r.currency.toLowerCase(), unit_amount: r.amount, product_data: { name: `Invoice ${r.invoiceNumber} — ${r.firmName}` } },
      }],
      client_reference_id: `${r.tenant}:${r.invoiceId}`,
      metadata: { tenant: r.tenant, invoiceId: String(r.invoiceId), invoiceNumber: r.invoiceNumber },
      payment_intent_data: { description: `Invoice ${r.invoiceNumber} (${r.clientName})`, metadata: { tenant: r.tenant, invoiceId: String(r.invoiceId) } },
      success_url: r.successUrl,
      cancel_url: r.cancelUrl,
    });
    if (!session.url) throw new Invalid('The payment provider returned no checkout address');
    return { url: session.url, reference: session.id };
  }

  paymentOf(rawBody: Buffer, signature: string | undefined): ProviderPayment | null {
    if (!signature) throw new Invalid(SIGNATURE_REFUSED);
    let event: Stripe.Event;
    try {
      event = this.#stripe.webhooks.constructEvent(rawBody, signature, this.#webhookSecret, SIGNATURE_TOLERANCE_SECONDS);
    } catch {
      throw new Invalid(SIGNATURE_REFUSED);
    }
    const paid = (event.type === 'checkout.session.completed' && event.data.object.payment_status === 'paid')
      || event.type === 'checkout.session.async_payment_succeeded';
    if (!paid) return null;
    const session = event.data.object as Stripe.Checkout.Session;
    const tenant = session.metadata?.tenant;
    const invoiceId = Number(session.metadata?.invoiceId);
    if (!tenant || !Number.isSafeInteger(invoiceId) || session.amount_total === null || !session.currency) return null;
    return {
      eventId: event.id, tenant, invoiceId, amount: session.amount_total, currency: session.currency.toUpperCase(),
      // Only a bank debit settles later (async_payment_succeeded); a card is paid at completion.
      method: event.type === 'checkout.session.async_payment_succeeded' ? 'bank_debit' : 'card',
      reference: session.id,
    };
  }
}
