import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { z } from 'zod';

const baseUrl = (fallback: string) => z.url().default(fallback).transform((u) => u.replace(/\/+$/, ''));

export const directoryConfigSpec = {
  publicBaseUrl: field('PUBLIC_BASE_URL', baseUrl('http://localhost:8080'), 'the portal\'s public URL; Google redirects to {this}/api/auth/google/callback/{clientId}'),
  encryptionKey: field('PORTAL_ENCRYPTION_KEY', env.optionalString(), '32-byte key (base64 or hex) for secrets at rest and signed links; unset generates one in PORTAL_DATA_DIR/keys'),
  googleOauthAuthUrl: field('GOOGLE_OAUTH_AUTH_URL', z.url().default('https://accounts.google.com/o/oauth2/v2/auth'), 'Google OAuth consent page'),
  googleOauthTokenUrl: field('GOOGLE_OAUTH_TOKEN_URL', z.url().default('https://oauth2.googleapis.com/token'), 'Google OAuth token endpoint'),
  googleApiRootUrl: field('GOOGLE_API_ROOT_URL', z.url().default('https://www.googleapis.com/'), 'root of Google\'s REST APIs (Drive)'),
  oauthStateTtlSeconds: field('GOOGLE_OAUTH_STATE_TTL_SECONDS', env.int(15 * 60, 60), 'how long a Google Drive connect link stays valid'),
  portalLinkTtlSeconds: field('CLIENT_PORTAL_LINK_TTL_SECONDS', env.int(30 * 24 * 60 * 60, 60), 'lifetime of a client portal link'),
  tenantPollMs: field('TENANT_POLL_MS', env.int(1000, 100), 'how often the firm list is re-read from identity (a deactivated firm is refused within this)'),
};

export type DirectoryConfig = ConfigOf<typeof directoryConfigSpec>;
export const loadDirectoryConfig = (e: NodeJS.ProcessEnv): DirectoryConfig => loadConfig(directoryConfigSpec, e);
