import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { createTokenVerifier, type TokenVerifier } from '@ledgerline/kit/auth/token-verifier.ts';
import { keycloakRealmTrust } from '@ledgerline/kit/auth/keycloak-realm-trust.ts';
import type { Bus } from '@ledgerline/kit/bus/bus.ts';
import { createBus } from '@ledgerline/kit/bus/create-bus.ts';
import { createDatabase } from '@ledgerline/kit/db/create-database.ts';
import { isPausable, type Database } from '@ledgerline/kit/db/database.ts';
import { migratePlatform } from '@ledgerline/kit/db/migrations.ts';
import { createServiceApp } from '@ledgerline/kit/http/service-app.ts';
import { createLogger, type Logger } from '@ledgerline/kit/logger.ts';
import { outboxMigrations } from '@ledgerline/kit/outbox/outbox.migrations.ts';
import { startOutboxRelay } from '@ledgerline/kit/outbox/outbox-relay.ts';
import { TENANT_HEADER, type ServiceInstance, type ServiceModule, type ServicePeer } from '@ledgerline/kit/service-module.ts';
import { createTenantMigrationRouter } from '@ledgerline/kit/tenancy/tenant-migration.router.ts';
import { createPortabilityRouter } from '@ledgerline/kit/portability/portability.router.ts';
import { followTenantSchemas } from '@ledgerline/kit/tenancy/tenant-schema-follower.ts';
import { TenantMigrationGate } from '@ledgerline/kit/tenancy/tenant-migration-gate.ts';
import { createRealtimeHub, type RealtimeHub } from '@ledgerline/kit/realtime/realtime-hub.ts';
import { createObjectStore } from '@ledgerline/kit/storage/create-object-store.ts';
import type { ObjectStore } from '@ledgerline/kit/storage/object-store.ts';
import { createFrontendsRouter } from '@ledgerline/gateway/frontends.router.ts';
import type { FirmSignInInfo } from '@ledgerline/gateway/sign-in-page.ts';
import { createGateway } from '@ledgerline/gateway/gateway.ts';
import { loadGatewayConfig } from '@ledgerline/gateway/gateway.config.ts';
import { RouteTable, type RouteTarget } from '@ledgerline/gateway/route-table.ts';
import { TenantDirectory, type TenantRoute } from '@ledgerline/gateway/tenant-directory.ts';
import { identityTenantChanges } from '@ledgerline/kit/tenancy/tenant-registry.ts';
import { startBackupControl } from './backup/backup-control.ts';
import { lockDataDir } from './data-dir-lock.ts';
import { loadPlatformConfig, servicePortEnv, serviceUrlEnv, type PlatformConfig } from './platform.config.ts';
import { resolveTargets, SERVICE_MODULES } from './targets.ts';

export interface PortalOptions {
  /** `all`, `gateway`, a service name, or a comma-separated list. */
  target?: string;
  env?: NodeJS.ProcessEnv;
  logger?: Logger;
}

export interface RunningPortal {
  /** Base URL of the gateway when it runs in this process. */
  gatewayUrl: string | null;
  /** Base URL of each service running in this process. */
  serviceUrls: ReadonlyMap<string, string>;
  /** The bus the in-process services share (null when none runs here): tests publish other services' events on it. */
  bus: Bus | null;
  stop(): Promise<void>;
}

interface Listening {
  name: string;
  server: http.Server;
  url: string;
  /** Run before the server closes (the gateway ends its proxied websockets). */
  beforeClose?(): void;
}

const FRONTENDS_DIR = fileURLToPath(new URL('../../../frontends/', import.meta.url));

/**
 * Starts the requested targets in this process. `all` is the embedded default: every
 * service on its own port (for service-to-service calls and websockets, as in production;
 * a free one, known only inside the process),
 * sharing one set of adapters chosen by env; the gateway hands API calls to the services
 * in its process directly (RouteTarget.inProcess).
 */
export async function startPortal(options: PortalOptions = {}): Promise<RunningPortal> {
  const env = options.env ?? process.env;
  const targets = resolveTargets(options.target ?? 'all');
  const config = loadPlatformConfig(env);
  const logger = options.logger ?? createLogger('portal');
  const listening: Listening[] = [];
  const stoppers: (() => Promise<void>)[] = [];
  const serviceUrls = new Map<string, string>();
  const inProcessApps = new Map<string, http.RequestListener>();
  let bus: Bus | null = null;
  let realtime: RealtimeHub | null = null;

  const stop = async () => {
    // Open websockets would keep the servers from closing: they go first (browsers reconnect elsewhere).
    realtime?.closeConnections();
    for (const s of [...listening].reverse()) {
      s.beforeClose?.();
      await closeServer(s.server, config.shutdownGraceMs);
    }
    for (const fn of stoppers.reverse()) await fn().catch((err: unknown) => logger.error({ err }, 'shutdown step failed'));
  };

  try {
    const urlOf = (name: string): string =>
      serviceUrls.get(name) ?? env[serviceUrlEnv(name)] ?? `http://127.0.0.1:${SERVICE_MODULES.find((m) => m.name === name)?.defaultPort}`;
    const peers = (): ServicePeer[] => SERVICE_MODULES.map((m) => ({ service: m.name, url: urlOf(m.name) }));
    const tokens = createTokenVerifier({
      discoverIssuer: config.keycloakUrl ? keycloakRealmTrust(config.keycloakUrl, config.keycloakRealmPrefix) : undefined,
      issuers: [{
        issuer: config.tokenIssuer,
        // Resolved per fetch: in `all` identity's port is only known once it listens.
        jwks: async () => {
          const r = await fetch(`${urlOf('identity')}/.well-known/jwks.json`, { signal: AbortSignal.timeout(5000) });
          if (!r.ok) throw new Error(`JWKS fetch failed: ${r.status}`);
          return (await r.json()) as { keys: [] };
        },
      }],
    });

    if (targets.services.length) {
      if (!config.postgresUrl) {
        const lock = await lockDataDir(config.dataDir);
        stoppers.push(() => lock.release());
      }
      const adapters = await openAdapters(config, logger);
      stoppers.push(adapters.close);
      if (isPausable(adapters.db)) {
        const control = await startBackupControl({ dataDir: config.dataDir, db: adapters.db, logger });
        stoppers.push(control.stop);
      }
      bus = adapters.bus;
      realtime = adapters.realtime;
      await migratePlatform(adapters.db, [outboxMigrations, ...targets.services.flatMap((m) => m.migrations.filter((s) => s.scope === 'platform'))]);
      const relay = startOutboxRelay({ db: adapters.db, bus: adapters.bus, logger, pollIntervalMs: config.outboxPollMs });
      stoppers.push(() => relay.stop());
      // With the gateway and every service in this process, nothing outside it reaches a
      // service: each takes a free port (unless its <NAME>_PORT says otherwise), so two
      // installations run side by side on one machine with only PORT (and the data folder)
      // set apart. A service in a process of its own keeps its fixed default port, where the
      // gateway and the other services of other processes find it.
      const oneProcess = targets.gateway && targets.services.length === SERVICE_MODULES.length;
      const start = async (module: ServiceModule) => {
        const port = Number(env[servicePortEnv(module.name)] ?? (oneProcess ? 0 : module.defaultPort));
        return startService(module, {
          ...adapters, tokens, env, dataDir: config.dataDir, peers,
          logger: logger.child({ service: module.name }),
        }, port, config.serviceHost, () => urlOf('identity'));
      };
      const started = (s: Awaited<ReturnType<typeof start>>, module: ServiceModule) => {
        listening.push(s.listening);
        serviceUrls.set(module.name, s.listening.url);
        inProcessApps.set(module.name, s.app);
        stoppers.push(s.stop);
      };
      // Identity first (the others ask it which firms there are), then the rest side by side:
      // one after another, start-up took the sum of every service's (issue 45).
      const [first, rest] = [targets.services.filter((m) => m.name === 'identity'), targets.services.filter((m) => m.name !== 'identity')];
      for (const module of first) started(await start(module), module);
      const results = await Promise.allSettled(rest.map(start));
      // Every service that did start is stopped with the portal, even when another failed.
      results.forEach((r, i) => { if (r.status === 'fulfilled') started(r.value, rest[i]!); });
      const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failure) throw failure.reason;
    }

    let gatewayUrl: string | null = null;
    if (targets.gateway) {
      const gw = await startGateway(env, tokens, logger.child({ service: 'gateway' }), urlOf, inProcessApps);
      listening.push(gw.listening);
      stoppers.push(gw.stop);
      gatewayUrl = gw.listening.url;
    }
    return { gatewayUrl, serviceUrls, bus, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function openAdapters(config: PlatformConfig, logger: Logger): Promise<{ db: Database; bus: Bus; storage: ObjectStore; realtime: RealtimeHub; close(): Promise<void> }> {
  const db = await createDatabase({
    postgresUrl: config.postgresUrl,
    dataDir: config.dataDir,
    pool: { maxConnections: config.postgresPoolMax, maxLifetimeSeconds: config.postgresPoolMaxLifetimeSeconds, maxUses: config.postgresPoolMaxUses },
    logger,
  });
  const bus = await createBus({ amqpUrl: config.amqpUrl, namespace: config.busNamespace || undefined, queueExpiresSeconds: config.busQueueExpiresSeconds, logger }).catch(async (err: unknown) => { await db.close(); throw err; });
  const storage = await createObjectStore({
    dataDir: config.dataDir,
    s3: config.s3Endpoint
      ? { endpoint: config.s3Endpoint, accessKey: config.s3AccessKey!, secretKey: config.s3SecretKey!, bucket: config.s3Bucket, region: config.s3Region }
      : undefined,
  }).catch(async (err: unknown) => { await bus.close(); await db.close(); throw err; });
  const realtime = await createRealtimeHub({ postgresUrl: config.postgresUrl, logger })
    .catch(async (err: unknown) => { await bus.close(); await db.close(); throw err; });
  logger.info({ db: db.kind, bus: bus.kind, storage: storage.kind, realtime: realtime.kind }, 'adapters ready');
  return {
    db, bus, storage, realtime,
    // Sockets first, then the bus: in-flight handlers finish while the database is still open.
    close: async () => { await realtime.close(); await bus.close(); await db.close(); },
  };
}

async function startService(
  module: ServiceModule,
  deps: Parameters<ServiceModule['init']>[0],
  port: number,
  host: string,
  identityUrl: () => string,
): Promise<{ listening: Listening; app: http.RequestListener; stop(): Promise<void> }> {
  const instance: ServiceInstance = await module.init(deps);
  const gate = new TenantMigrationGate();
  const app = createServiceApp({
    name: module.name,
    logger: deps.logger,
    routers: [
      createTenantMigrationRouter(deps.db, deps.tokens, module.migrations, gate),
      gate.router(),
      createPortabilityRouter({ service: module.name, ...deps, migrations: module.migrations, hooks: instance.portability ?? module.portability }),
      ...instance.routers,
    ],
    readiness: [{ name: 'db', check: () => deps.db.ping() }, { name: 'bus', check: () => deps.bus.ping() }, ...(instance.readiness ?? [])],
    openapi: () => instance.api.document(),
    rawBodyPaths: instance.rawBodyPaths,
  });
  await instance.start?.();
  const server = http.createServer(app);
  instance.attach?.(server);
  const listening = await listen(module.name, server, port, host);
  deps.logger.info({ url: listening.url }, 'service listening');
  // Identity migrates its own tenant tables as it provisions firms; the others follow, in
  // the background: firms found behind answer 503 until theirs is done (TenantMigrationGate).
  const follower = module.name === 'identity' ? null : await followTenantSchemas({
    service: module.name, db: deps.db, bus: deps.bus, sets: module.migrations, gate, identityUrl, logger: deps.logger,
  });
  return { listening, app, stop: async () => { await follower?.close(); await instance.stop?.(); } };
}

async function startGateway(
  env: NodeJS.ProcessEnv,
  tokens: TokenVerifier,
  logger: Logger,
  urlOf: (name: string) => string,
  inProcessApps: ReadonlyMap<string, http.RequestListener>,
): Promise<{ listening: Listening; stop(): Promise<void> }> {
  const config = loadGatewayConfig(env);
  const routes = new RouteTable();
  const targets = (): RouteTarget[] => SERVICE_MODULES.map((m) => ({ service: m.name, url: urlOf(m.name) }));
  // Services in this process are listening by now (port 0 resolved): every URL is known.
  for (const m of SERVICE_MODULES) routes.addService({ service: m.name, url: urlOf(m.name), inProcess: inProcessApps.get(m.name) }, m.apiResources, m.otherPaths);
  const tenants = new TenantDirectory();
  // Asks "changed since?" each poll; the whole list only when it has changed.
  const poller = tenants.poll(identityTenantChanges<TenantRoute>(() => urlOf('identity')), config.tenantPollMs,
    (err) => logger.warn({ err: String(err) }, 'tenant routing snapshot not refreshed'));
  const gateway = createGateway({
    config, routes, tokens, logger,
    services: targets,
    tenants,
    frontends: config.frontendsUrl ? null : createFrontendsRouter({ frontendsDir: FRONTENDS_DIR, remotes: builtRemotes(), firmSignIn: (shortName) => firmInfo(urlOf('identity'), shortName) }),
  });
  const server = http.createServer(gateway.handle);
  server.on('upgrade', gateway.upgrade);
  const listening = await listen('gateway', server, config.port, config.host);
  logger.info({ url: listening.url }, 'gateway listening');
  return { listening: { ...listening, beforeClose: gateway.closeUpgrades }, stop: async () => { poller.stop(); await gateway.close(); } };
}

/** A firm's sign-in page waits at most this long for the firm's name; without it the plain shell is served. */
const FIRM_INFO_TIMEOUT_MS = 1500;

/** A firm's public facts as its sign-in page shows them (identity's /api/info for the firm); null when unknown or inactive. */
async function firmInfo(identityUrl: string, shortName: string): Promise<FirmSignInInfo | null> {
  const r = await fetch(`${identityUrl}/api/info`, { headers: { [TENANT_HEADER]: shortName }, signal: AbortSignal.timeout(FIRM_INFO_TIMEOUT_MS) });
  if (r.ok) return (await r.json()) as FirmSignInInfo;
  await r.body?.cancel();
  return null;
}

/** Remotes whose build exists; each is loaded by the shell from its mf-manifest.json. */
function builtRemotes(): string[] {
  return readdirSync(FRONTENDS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && d.name !== 'shell' && existsSync(join(FRONTENDS_DIR, d.name, 'dist', 'mf-manifest.json')))
    .map((d) => d.name);
}

function listen(name: string, server: http.Server, port: number, host: string): Promise<Listening> {
  // Upstream keep-alive sockets from the gateway must outlive its agent's idle timeout.
  server.keepAliveTimeout = 65_000;
  // A large upload on a slow line may take longer than Node's default 5-minute limit on a
  // whole request, so there is none; the header limit stays, and a connection that sends
  // nothing for 5 minutes is dropped instead.
  server.requestTimeout = 0;
  server.timeout = 5 * 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const { port: bound } = server.address() as AddressInfo;
      resolve({ name, server, url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${bound}` });
    });
  });
}

/** Stop accepting, let in-flight requests finish within the grace period, then cut the rest. */
function closeServer(server: http.Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => { clearTimeout(timer); resolve(); });
    server.closeIdleConnections();
  });
}
