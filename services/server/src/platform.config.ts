import { resolve } from 'node:path';
import { ConfigError, env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { z } from 'zod';

/**
 * Settings shared by every target of the process: where the embedded defaults keep their
 * data, and the URLs that switch each adapter to its real server.
 */
export const platformConfigSpec = {
  dataDir: field('PORTAL_DATA_DIR', z.string().min(1).default('./data').transform((p) => resolve(p)), 'folder of the embedded defaults (PGlite, objects, keys); one process at a time holds it (a lock the kernel frees when that process ends; a second start is refused with the holder\'s pid)'),
  postgresUrl: field('POSTGRES_URL', env.optionalString(), 'PostgreSQL connection URL; unset uses embedded PGlite'),
  postgresPoolMax: field('POSTGRES_POOL_MAX', env.int(10, 1), 'PostgreSQL connections this process may hold at once (every service of the process shares them): set it per service in that service\'s environment (in the chart: that service\'s extraEnv); the sum over all processes and replicas must stay under the server\'s max_connections'),
  postgresPoolMaxLifetimeSeconds: field('POSTGRES_POOL_MAX_LIFETIME_SECONDS', env.int(1800, 0), 'a pooled PostgreSQL connection is closed once idle after this long (0: never): a backend keeps the catalog of every firm schema it touched, so recycling bounds its memory in an installation of many firms'),
  postgresPoolMaxUses: field('POSTGRES_POOL_MAX_USES', env.int(7500, 0), 'a pooled PostgreSQL connection is closed after this many checkouts (0: no limit), for the same reason'),
  amqpUrl: field('AMQP_URL', env.optionalString(), 'RabbitMQ URL; unset uses the in-process bus'),
  busQueueExpiresSeconds: field('BUS_QUEUE_EXPIRES_SECONDS', env.int(0, 0),
    'the broker deletes a queue nobody has used this long (0: never); test portals set it so their queues do not pile up on a shared broker'),
  busNamespace: field('BUS_NAMESPACE', z.string().regex(/^[a-z0-9_-]*$/).default(''), 'prefix of the broker exchange and queues (installations sharing one RabbitMQ)'),
  s3Endpoint: field('S3_ENDPOINT', env.optionalUrl(), 'S3-compatible endpoint (MinIO); unset stores objects in PORTAL_DATA_DIR/objects'),
  s3AccessKey: field('S3_ACCESS_KEY', env.optionalString(), 'S3 access key'),
  s3SecretKey: field('S3_SECRET_KEY', env.optionalString(), 'S3 secret key'),
  s3Bucket: field('S3_BUCKET', env.string('portal'), 'S3 bucket for documents'),
  s3Region: field('S3_REGION', env.string('us-east-1'), 'S3 region'),
  keycloakUrl: field('KEYCLOAK_URL', env.optionalUrl(), 'Keycloak base URL: tokens of its firm realms are trusted'),
  keycloakRealmPrefix: field('KEYCLOAK_REALM_PREFIX', env.string('portal-'), 'realm name = prefix + firm short name'),
  tokenIssuer: field('PORTAL_TOKEN_ISSUER', env.string('ledgerline'), 'iss claim of tokens from the built-in issuer'),
  shutdownGraceMs: field('SHUTDOWN_GRACE_MS', env.int(10_000, 0), 'how long in-flight requests may finish on SIGTERM'),
  serviceHost: field('SERVICE_HOST', env.string('127.0.0.1'), 'address the services listen on; 0.0.0.0 when they run in pods of their own (the chart and k8s/base set it), so the gateway and the other services can reach them'),
  target: field('PORTAL_TARGET', env.string('all'), 'what this process runs when no --target= is given: all (the embedded default), gateway, a service name, or a comma list'),
  // The logger exists before any config is loaded (it reports config errors), so it reads
  // LOG_LEVEL itself; the field is here so a bad level fails the start like any setting.
  logLevel: field('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(), 'pino log level; unset: info (silent under NODE_ENV=test)'),
  outboxPollMs: field('OUTBOX_POLL_MS', env.int(2000, 10), 'safety-net poll of the outbox relay (events enqueued in this process are published at once)'),
};

export type PlatformConfig = ConfigOf<typeof platformConfigSpec>;

export function loadPlatformConfig(e: NodeJS.ProcessEnv = process.env): PlatformConfig {
  const config = loadConfig(platformConfigSpec, e);
  if (config.s3Endpoint && !(config.s3AccessKey && config.s3SecretKey)) {
    throw new ConfigError('Invalid configuration:\n  S3_ENDPOINT is set, so S3_ACCESS_KEY and S3_SECRET_KEY must be set too');
  }
  return config;
}

/** Env name of a service's own port and of its URL as the gateway reaches it. */
export const servicePortEnv = (name: string): string => `${name.toUpperCase()}_PORT`;
export const serviceUrlEnv = (name: string): string => `${name.toUpperCase()}_SERVICE_URL`;
