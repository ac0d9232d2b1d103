import type http from 'node:http';
import type { Router } from 'express';
import type { Bus } from './bus/bus.ts';
import type { Database } from './db/database.ts';
import type { ServiceMigrations } from './db/migrations.ts';
import type { ApiRegistry } from './http/api-registry.ts';
import type { Logger } from './logger.ts';
import type { ObjectStore } from './storage/object-store.ts';
import type { TokenVerifier } from './auth/token-verifier.ts';
import type { HealthCheck } from './http/service-app.ts';
import type { RealtimeHub } from './realtime/realtime-hub.ts';
import type { ServicePortability } from './portability/portability.ts';

/** What the runtime hands every service: the adapters chosen by env, shared in `--target=all`. */
export interface ServiceDeps {
  db: Database;
  bus: Bus;
  storage: ObjectStore;
  tokens: TokenVerifier;
  logger: Logger;
  /** Pushes to browsers (any service); the realtime endpoint's owner also attaches it. */
  realtime: RealtimeHub;
  env: NodeJS.ProcessEnv;
  /** Embedded-default data folder (PGlite, local objects, keys). */
  dataDir: string;
  /** Every service of the product and where it is reachable now (itself included). */
  peers: () => ServicePeer[];
}

export interface ServicePeer {
  service: string;
  url: string;
}

export interface ServiceInstance {
  routers: Router[];
  api: ApiRegistry;
  /** Extra readiness checks beyond db and bus (which the runtime adds). */
  readiness?: HealthCheck[];
  /** Called once with the service's HTTP server before it listens (the socket.io endpoint's owner attaches there). */
  attach?(server: http.Server): void;
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Portability hooks that need what init builds (a key, the identity provider); they replace the module's. */
  portability?: ServicePortability;
  /** Paths (prefixes) whose JSON bodies are also kept as received (`rawBody`), for signatures over the bytes (webhooks). */
  rawBodyPaths?: readonly string[];
}

/**
 * A service is a module with a small init (DESIGN §4): the runtime runs one or all of
 * them; the gateway reads only the descriptor fields (name, port, apiResources) to route.
 */
export interface ServiceModule {
  name: string;
  defaultPort: number;
  /**
   * First path segments after `/api/` (or `/api/{tenant}/`) this service answers, e.g.
   * `['users', 'roles']`. Tenant short names may never equal one of them.
   */
  apiResources: readonly string[];
  /** Exact non-API path prefixes it serves (e.g. `/.well-known/`). */
  otherPaths?: readonly string[];
  /** Tenant- and platform-scoped migrations this service owns. */
  migrations: readonly ServiceMigrations[];
  /**
   * How the service's part of a firm is exported and imported (DESIGN §8 "portability");
   * without it, every table its tenant migrations create is copied row for row.
   */
  portability?: ServicePortability;
  init(deps: ServiceDeps): Promise<ServiceInstance>;
}

/** Header the gateway sets after resolving the tenant from path, host or token. */
export const TENANT_HEADER = 'x-portal-tenant';
/**
 * Header the gateway sets to the client's address as it determined it (from the
 * connection, or from X-Forwarded-For sent by a trusted proxy only). Services read
 * nothing else: they are reachable from the gateway and each other only.
 */
export const CLIENT_ADDRESS_HEADER = 'x-portal-client-address';
