/**
 * The one bus contract. Events are envelopes with a unique id (consumers dedupe on it),
 * a dotted type (`tenant.created`, `file.uploaded`), the tenant short name they concern
 * (null for platform events) and a JSON payload. Delivery is at-least-once.
 */
export interface EventEnvelope<P = unknown> {
  id: string;
  type: string;
  tenant: string | null;
  occurredAt: string;
  payload: P;
}

export type EventHandler = (event: EventEnvelope) => Promise<void>;

export interface Subscription {
  close(): Promise<void>;
}

export interface Bus {
  readonly kind: 'memory' | 'rabbitmq';
  /** Resolves once the broker has confirmed every event (publisher confirms). */
  publish(events: readonly EventEnvelope[]): Promise<void>;
  /**
   * Consumes `types` into the durable queue `queue` (one per consuming service, so every
   * service gets its own copy). A handler that throws causes redelivery; after the
   * delivery limit the message goes to the dead-letter queue.
   */
  subscribe(queue: string, types: readonly string[], handler: EventHandler): Promise<Subscription>;
  /** Cheap liveness check used by /readyz. */
  ping(): Promise<void>;
  /** Stops consuming, waits for in-flight handlers, then closes. */
  close(): Promise<void>;
}

/** Default delay before a failed event's first redelivery (see `redeliveryDelayMs`). */
export const DEFAULT_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 10_000;

/**
 * How long a failed event waits before it is delivered again: `firstMs` after the first
 * failure, doubled each time, at most ten seconds. A handler usually fails because
 * something it needs is briefly away (a database restarting, a service redeploying);
 * immediate retries would use up the delivery limit in milliseconds and dead-letter the
 * event, while the defaults span about fifteen seconds before it is given up.
 */
export function redeliveryDelayMs(failures: number, firstMs: number): number {
  return Math.min(firstMs * 2 ** Math.max(0, failures - 1), MAX_RETRY_DELAY_MS);
}

export function newEvent<P>(type: string, tenant: string | null, payload: P): EventEnvelope<P> {
  return { id: crypto.randomUUID(), type, tenant, occurredAt: new Date().toISOString(), payload };
}
