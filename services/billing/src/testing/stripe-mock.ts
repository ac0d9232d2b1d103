import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/*
 * What the Stripe suites share (the billing API's and the browser's): a recorder in front of
 * stripe-mock, and webhook deliveries signed as Stripe signs them. stripe-mock checks every
 * parameter against Stripe's API description and answers canned objects; it keeps no state,
 * so a suite asserts on what the adapter sent on the way through.
 */

/** A Checkout Session the adapter created: the form it sent, and stripe-mock's answer. */
export interface CreatedCheckoutSession { sent: URLSearchParams; answer: { id: string; url: string } }

export interface StripeRecorder {
  /** The API base URL to configure the portal with (STRIPE_API_BASE_URL). */
  url: string;
  sessionsCreated: CreatedCheckoutSession[];
  close(): Promise<void>;
}

/*
 * Passes the adapter's calls on to stripe-mock unchanged but for one name, keeping each
 * Checkout Session's form. The one name: the stripe package (23.1.0) speaks API version
 * 2026-10-28, where Checkout's payment method filter is `allowed_payment_method_types`;
 * stripe-mock's newest release describes 2026-08-26, where it was `payment_method_types`,
 * and refuses the newer name as unknown.
 */
export async function startStripeRecorder(target: string): Promise<StripeRecorder> {
  const sessionsCreated: CreatedCheckoutSession[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString();
      const isCheckout = req.method === 'POST' && req.url === '/v1/checkout/sessions';
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
      const answer = await fetch(new URL(req.url!, target), {
        method: req.method, headers,
        ...(req.method === 'GET' ? {} : { body: isCheckout ? body.replace(/(^|&)allowed_payment_method_types(%5B|\[)/g, '$1payment_method_types$2') : body }),
      });
      const text = await answer.text();
      if (isCheckout && answer.ok) sessionsCreated.push({ sent: new URLSearchParams(body), answer: JSON.parse(text) as { id: string; url: string } });
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    sessionsCreated,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An event as Stripe would deliver it, with the Stripe-Signature header for this secret (Stripe's own generateTestHeaderString). */
export function signedStripeEvent(event: Record<string, unknown>, secret: string, options: { timestamp?: number } = {}): { body: string; signature: string } {
  const body = JSON.stringify({ object: 'event', api_version: '2025-01-27', created: Math.floor(Date.now() / 1000), ...event });
  return { body, signature: Stripe.webhooks.generateTestHeaderString({ payload: body, secret, ...(options.timestamp ? { timestamp: options.timestamp } : {}) }) };
}

/** A Checkout Session event's fields, for the firm and invoice the adapter put in the session's metadata. */
export const checkoutSessionEvent = (eventId: string, type: string, session: { id: string; tenant: string; invoiceId: number; amount: number; currency: string; paid?: boolean }) => ({
  id: eventId, type,
  data: { object: {
    id: session.id, object: 'checkout.session', payment_status: session.paid === false ? 'unpaid' : 'paid', amount_total: session.amount, currency: session.currency,
    metadata: { tenant: session.tenant, invoiceId: String(session.invoiceId) },
  } },
});

/** Posts a delivery to the portal's webhook endpoint (the platform path unless another is given). */
export async function deliverStripeWebhook(baseUrl: string, delivery: { body: string; signature: string | null }, path = '/api/billing/stripe/webhook') {
  const r = await fetch(`${baseUrl}${path}`, {
    method: 'POST', body: delivery.body, headers: { 'content-type': 'application/json', ...(delivery.signature ? { 'stripe-signature': delivery.signature } : {}) },
  });
  return { status: r.status, body: (await r.json()) as { received?: boolean; recorded?: boolean; message?: string } };
}
