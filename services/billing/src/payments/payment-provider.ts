/**
 * The payment provider adapter pair (DESIGN §9): Stripe (stripe-provider.ts) or none. With
 * none configured (the embedded default) there is no online payment: invoices show the
 * firm's bank details, staff record payments by hand, and nothing offers to take a card.
 */

export interface CheckoutRequest {
  tenant: string;
  invoiceId: number;
  invoiceNumber: string;
  firmName: string;
  clientName: string;
  /** ISO 4217. */
  currency: string;
  /** The balance to pay, in minor units. */
  amount: number;
  successUrl: string;
  cancelUrl: string;
}

/** A payment a verified webhook event reports. */
export interface ProviderPayment {
  /** The provider's event id: a delivery seen before records nothing. */
  eventId: string;
  tenant: string;
  invoiceId: number;
  amount: number;
  currency: string;
  method: 'card' | 'bank_debit';
  /** The provider's own reference (Stripe: the Checkout Session id), shown with the payment. */
  reference: string;
}

export interface PaymentProvider {
  readonly name: string;
  /** Starts a hosted checkout for the balance; the client is sent to `url`. */
  createCheckout(request: CheckoutRequest): Promise<{ url: string; reference: string }>;
  /**
   * Verifies a webhook delivery against the signing secret (throws `Invalid` on a missing or
   * wrong signature, or one too old) and returns the payment it reports, or null for an event
   * that reports none (other types, an unpaid session).
   */
  paymentOf(rawBody: Buffer, signature: string | undefined): ProviderPayment | null;
}
