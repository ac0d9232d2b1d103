import type { UserAccessReadModel } from '../access/user-access-read-model.ts';
import type { Subscription } from '../bus/bus.ts';
import { tenantSchema } from '../db/tenant-schema.ts';
import type { JobQueue } from '../scheduler/job-queue.ts';
import { startScheduler, type BatchJobHandler, type JobHandler, type Scheduler } from '../scheduler/scheduler.ts';
import type { ServiceDeps } from '../service-module.ts';
import type { TenantEventPayload } from './tenant-events.ts';
import { identityTenantChanges, identityTenantSource, TenantRegistry } from './tenant-registry.ts';
import { serviceTenants, type ServiceTenants } from './tenant-requests.ts';

/** What a service's event consumers are given (the read models' `follow` takes the same). */
export type ConsumerDeps = Pick<ServiceDeps, 'db' | 'bus' | 'logger'> & { tenants: TenantRegistry };

export interface TenantServiceStart {
  /** Consumers to subscribe, in order (the read models' first). */
  follow: ((deps: ConsumerDeps) => Promise<Subscription>)[];
  /** Kit's durable scheduler over every active firm, for a service with jobs. */
  scheduler?: { queue: JobQueue; handlers: Record<string, JobHandler>; batchHandlers?: Record<string, BatchJobHandler>; pollMs: number };
}

export interface TenantServiceRuntime {
  /** Where a peer service is reachable now (in `all` a port is known only once it listens). */
  peer(name: string): () => string;
  /** Identity's firm list as it is now (platform-wide screens), unlike the registry's cached one. */
  firms: () => Promise<TenantEventPayload[]>;
  registry: TenantRegistry;
  tenants: ServiceTenants;
  /** Polls the firm list, subscribes the consumers, starts the scheduler. */
  start(options: TenantServiceStart): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The wiring every firm-scoped service repeats around its own parts: peers' URLs, the firm
 * registry (polled while running), request tenants checked against the user-access read
 * model, its event consumers and, when it has jobs, the scheduler; stopped in reverse.
 */
export function tenantServiceRuntime(deps: ServiceDeps, options: { userAccess: UserAccessReadModel; tenantPollMs: number }): TenantServiceRuntime {
  const { db, bus, logger } = deps;
  const peer = (name: string) => () => deps.peers().find((p) => p.service === name)!.url;
  const firms = identityTenantSource(peer('identity'));
  const registry = new TenantRegistry({ source: identityTenantChanges(peer('identity')) });
  const tenants = serviceTenants(db, registry, options.userAccess, peer('identity'));
  let poller: { stop(): void } | undefined;
  let scheduler: Scheduler | undefined;
  const subscriptions: Subscription[] = [];

  return {
    peer,
    firms,
    registry,
    tenants,
    async start({ follow, scheduler: jobs }) {
      poller = registry.poll(options.tenantPollMs, logger);
      const consumerDeps: ConsumerDeps = { db, bus, logger, tenants: registry };
      for (const subscribe of follow) subscriptions.push(await subscribe(consumerDeps));
      if (jobs) {
        scheduler = startScheduler({
          db, queue: jobs.queue, handlers: jobs.handlers, ...(jobs.batchHandlers ? { batchHandlers: jobs.batchHandlers } : {}), logger, pollMs: jobs.pollMs,
          tenants: async () => (await registry.active()).map((f) => ({ shortName: f.shortName, schema: tenantSchema(f.schemaName) })),
        });
      }
    },
    async stop() {
      poller?.stop();
      await scheduler?.stop();
      for (const s of subscriptions.splice(0)) await s.close();
    },
  };
}
