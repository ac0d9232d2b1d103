import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';

export const identityConfigSpec = {
  adminUsername: field('PORTAL_ADMIN_USERNAME', env.optionalString(), 'first platform administrator, created on first start when set'),
  adminPassword: field('PORTAL_ADMIN_PASSWORD', env.optionalString(), 'password of that administrator (at least 6 characters)'),
  adminFullName: field('PORTAL_ADMIN_FULL_NAME', env.string('Platform Administrator'), 'display name of that administrator'),
  tokenIssuer: field('PORTAL_TOKEN_ISSUER', env.string('ledgerline'), 'iss claim of issued tokens'),
  tokenTtlSeconds: field('TOKEN_TTL_SECONDS', env.int(8 * 60 * 60, 60), 'lifetime of an access token'),
  keyRotateAfterSeconds: field('SIGNING_KEY_ROTATE_AFTER_SECONDS', env.int(30 * 24 * 60 * 60, 60), 'age at which the signing key is replaced'),
};

export type IdentityConfig = ConfigOf<typeof identityConfigSpec>;
export const loadIdentityConfig = (e: NodeJS.ProcessEnv): IdentityConfig => loadConfig(identityConfigSpec, e);
