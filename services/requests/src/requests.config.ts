import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { mailConfigSpec } from '@ledgerline/kit/mail/mail.config.ts';

export const requestsConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each replica looks for due reminders, overdue notices and e-mails'),
  encryptionKey: field('PORTAL_ENCRYPTION_KEY', env.optionalString(), '32-byte key (base64 or hex) the upload assertions to the files service are signed with; unset generates one in PORTAL_DATA_DIR/keys'),
  publicLinkAttemptsPerMinute: field('REQUEST_LINK_ATTEMPTS_PER_MINUTE', env.int(30, 1), 'calls one address, or one link, may make to the public document-request calls per minute'),
  linkRenewalsPerMinute: field('REQUEST_LINK_RENEWALS_PER_MINUTE', env.int(5, 1), '"e-mail me a new link" calls one address may make per minute (each link mails at most once an hour whatever this is)'),
  ...mailConfigSpec,
  publicBaseUrl: field('PUBLIC_BASE_URL', env.string('http://localhost:8080'), 'the portal\'s public URL, for links in e-mails'),
};

export type RequestsConfig = ConfigOf<typeof requestsConfigSpec>;
export const loadRequestsConfig = (e: NodeJS.ProcessEnv): RequestsConfig => loadConfig(requestsConfigSpec, e);
