import { ConfigError, env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { knownTimeZone, TIME_ZONE_MESSAGE } from '@ledgerline/contracts/time-zone.ts';
import { mailConfigSpec } from '@ledgerline/kit/mail/mail.config.ts';

export const identityConfigSpec = {
  adminUsername: field('PORTAL_ADMIN_USERNAME', env.optionalString(), 'first platform administrator, created on first start when set'),
  adminPassword: field('PORTAL_ADMIN_PASSWORD', env.optionalString(), 'password of that administrator (at least 6 characters)'),
  adminFullName: field('PORTAL_ADMIN_FULL_NAME', env.string('Platform Administrator'), 'display name of that administrator'),
  tokenIssuer: field('PORTAL_TOKEN_ISSUER', env.string('ledgerline'), 'iss claim of issued tokens'),
  tokenTtlSeconds: field('TOKEN_TTL_SECONDS', env.int(8 * 60 * 60, 60), 'lifetime of an access token'),
  keyRotateAfterSeconds: field('SIGNING_KEY_ROTATE_AFTER_SECONDS', env.int(30 * 24 * 60 * 60, 60), 'age at which the signing key is replaced'),
  loginMaxFailuresPerUser: field('LOGIN_MAX_FAILURES_PER_USER', env.int(5, 1), 'failed logins per username within the window before 429'),
  loginMaxFailuresPerIp: field('LOGIN_MAX_FAILURES_PER_IP', env.int(30, 1), 'failed logins per client IP within the window before 429'),
  loginThrottleWindowSeconds: field('LOGIN_THROTTLE_WINDOW_SECONDS', env.int(15 * 60, 1), 'window of the login throttle'),
  defaultTimeZone: field('PORTAL_DEFAULT_TIME_ZONE', env.string('UTC'), 'IANA time zone of firms that have not chosen one (dates, "today" and "overdue" are read in it)'),
  encryptionKey: field('PORTAL_ENCRYPTION_KEY', env.optionalString(), '32-byte key (base64 or hex) sealing authenticator secrets at rest; unset generates one in PORTAL_DATA_DIR/keys'),
  archiveTrustedKeys: field('FIRM_ARCHIVE_TRUSTED_KEYS', env.optionalString(), 'comma-separated public keys (base64url, as GET /api/companies/imports/signing-key shows them) of other installations whose firm archives import without confirmation'),
  ...mailConfigSpec,
  publicBaseUrl: field('PUBLIC_BASE_URL', env.string('http://localhost:8080'), 'the portal\'s public URL: the sign-in links in e-mails; passkeys are bound to its host name (the WebAuthn RP ID) and accepted from its origin only'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each identity replica looks for e-mails to send'),
  emailCodeRequestsPerAddress: field('EMAIL_CODE_REQUESTS_PER_ADDRESS', env.int(5, 1), 'e-mailed codes one address may ask for within the login throttle window before 429'),
  keycloakUrl: field('KEYCLOAK_URL', env.optionalUrl(), 'Keycloak base URL: each firm gets a realm; unset uses the built-in issuer'),
  keycloakPublicUrl: field('KEYCLOAK_PUBLIC_URL', env.optionalUrl(), 'Keycloak as users\' browsers reach it, for the Security screen\'s link to a firm\'s account console; unset uses KEYCLOAK_URL'),
  keycloakAdminUsername: field('KEYCLOAK_ADMIN_USERNAME', env.string('admin'), 'Keycloak administrator (master realm)'),
  keycloakAdminPassword: field('KEYCLOAK_ADMIN_PASSWORD', env.optionalString(), 'its password'),
  keycloakRealmPrefix: field('KEYCLOAK_REALM_PREFIX', env.string('portal-'), 'realm name = prefix + firm short name'),
};

export type IdentityConfig = ConfigOf<typeof identityConfigSpec>;
export const loadIdentityConfig = (e: NodeJS.ProcessEnv): IdentityConfig => {
  const config = loadConfig(identityConfigSpec, e);
  if (config.adminPassword !== undefined && config.adminPassword.length < 6) {
    throw new ConfigError('Invalid configuration:\n  PORTAL_ADMIN_PASSWORD: Password must be at least 6 characters');
  }
  if (!URL.canParse(config.publicBaseUrl)) {
    throw new ConfigError('Invalid configuration:\n  PUBLIC_BASE_URL: must be a URL such as https://portal.example.com');
  }
  if (!knownTimeZone(config.defaultTimeZone)) {
    throw new ConfigError(`Invalid configuration:\n  PORTAL_DEFAULT_TIME_ZONE: ${TIME_ZONE_MESSAGE}`);
  }
  return config;
};
