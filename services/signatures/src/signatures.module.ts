import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { deriveKey, loadMasterKey } from '@ledgerline/kit/crypto/master-key.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { ReportForwarder } from '@ledgerline/kit/files/report-forwarder.ts';
import { AttemptCounter } from '@ledgerline/kit/http/attempt-counter.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { MAIL_JOB, mailJob } from '@ledgerline/kit/mail/mail-job.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { loadSealIdentity } from '@ledgerline/kit/pdf/seal-key.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { REQUEST_UPLOAD_KEY_PURPOSE, type RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';
import { SIGNATURE_MESSAGES } from '@ledgerline/contracts/signatures.contracts.ts';
import { AuthenticatorCheck } from './domain/authenticator-check.ts';
import { DocumentSource } from './domain/document-source.ts';
import { ReleaseInvoices } from './domain/release-invoice.ts';
import { SecretHasher } from './domain/identity-checks.ts';
import { SignatureService } from './domain/signature.service.ts';
import { SignatureTemplates } from './domain/signature-templates.service.ts';
import { SignatureReminders } from './domain/signature-reminders.ts';
import { createSignatureTemplatesRouter } from './http/signature-templates.router.ts';
import { SignatureTemplateStore } from './store/signature-template.store.ts';
import { firmTimeZone } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { asClientDateCountry, firmCountryFromZone } from '@ledgerline/contracts/client-date.ts';
import { FIRM_COUNTRY_FACTS, firmLocale } from '@ledgerline/contracts/firm-country.ts';
import { SignerNotices } from './domain/signer-notices.ts';
import { SigningService } from './domain/signing.service.ts';
import { followSignaturePushes } from './events/signature-push.consumer.ts';
import { createPublicSigningRouter } from './http/public-signing.router.ts';
import { createSignatureRequestsRouter } from './http/signature-requests.router.ts';
import { createSigningPageRouter, SIGNING_PAGE_PATH } from './signing-page/signing-page.router.ts';
import { loadSignaturesConfig } from './signatures.config.ts';
import { signaturesTenantMigrations } from './signatures.migrations.ts';
import { SignatureStore } from './store/signature.store.ts';

const userAccess = createUserAccessReadModel('signatures');
const directory = createDirectoryReadModel('signatures');
const jobs = createJobQueue('signatures');

/**
 * E-signatures (issue 41): engagement letters and e-file authorizations signed in the portal
 * or from a per-signer link, with the identity check the firm chose, a certificate of
 * completion, and a PAdES seal; the signed PDF becomes a report of the client.
 */
export const signaturesModule: ServiceModule = {
  name: 'signatures',
  defaultPort: 8111,
  apiResources: ['signature-requests', 'signature-templates', 'public/signing'],
  otherPaths: [SIGNING_PAGE_PATH],
  migrations: [signaturesTenantMigrations, userAccess.migrations, directory.migrations, jobs.migrations, jobs.dueIndexMigrations],
  async init(deps) {
    const config = loadSignaturesConfig(deps.env);
    const api = new ApiRegistry('signatures');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants, registry } = runtime;
    const master = loadMasterKey(config.encryptionKey, deps.dataDir);
    const seal = loadSealIdentity({ keyPem: config.sealKeyPem, certificatePem: config.sealCertificatePem }, deps.dataDir, config.sealName);
    const store = new SignatureStore();
    const firmName = async (shortName: string) => (await registry.find(shortName))?.name ?? shortName;
    const hasher = new SecretHasher(deriveKey(master, 'signature-identity-checks'));
    const notices = new SignerNotices({ store, jobs, publicBaseUrl: config.publicBaseUrl, users: userAccess });
    // No KBA provider is built in: the `provider` check answers 409 "unavailable" (never faked).
    const provider = null;
    // The same internal upload, key and assertion as document requests' uploads: a report of a client handed over by a service.
    const files = new ReportForwarder(peer('files'), new TokenSigner<RequestUploadAssertion>(deriveKey(master, REQUEST_UPLOAD_KEY_PURPOSE)));
    const signing = new SigningService({
      store, jobs, notices, hasher, seal, provider, firmName, files,
      onFilingError: (err, requestId) => deps.logger.warn({ err, requestId }, 'handing a signed PDF to the files service failed; retried when staff open the request'),
    });
    const directoryLookup = new DirectoryLookup(directory, peer('directory'));
    const documents = new DocumentSource(peer('files'));
    const templates = new SignatureTemplates({ store: new SignatureTemplateStore(), documents, directory: directoryLookup });
    // What a letter's merge fields take from the firm: its name, today in its zone, its currency (by its country, else its zone).
    const firm = async (shortName: string) => {
      const f = await registry.find(shortName);
      const timeZone = f ? firmTimeZone(f) : 'UTC';
      const country = asClientDateCountry(f?.country) ?? firmCountryFromZone(timeZone);
      const date = new Intl.DateTimeFormat(firmLocale(country) ?? 'en-US', { dateStyle: 'long', timeZone }).format(new Date());
      return { firmName: f?.name ?? shortName, date, currency: FIRM_COUNTRY_FACTS[country].currency };
    };
    const reminders = new SignatureReminders({
      store, jobs, notices, users: userAccess,
      firm: async (shortName) => { const f = await registry.find(shortName); return { name: f?.name ?? shortName, timeZone: f ? firmTimeZone(f) : 'UTC' }; },
    });
    const service = new SignatureService({
      store, directory: directoryLookup, users: userAccess, documents, hasher, notices, provider, templates, firm, reminders,
      firmName, fileSigned: (t, id) => signing.fileSigned(t.db, t.shortName, id), invoices: new ReleaseInvoices(peer('billing')),
    });
    const mailer = createMailer(config, deps.logger);
    const handlers: Record<string, JobHandler> = { [MAIL_JOB]: mailJob(mailer), ...reminders.handlers() };
    return {
      api,
      routers: [
        createSigningPageRouter(),
        createPublicSigningRouter({ api, tenants, signing, attempts: new AttemptCounter(config.linkAttemptsPerMinute, SIGNATURE_MESSAGES.tooManyAttempts) }),
        createSignatureTemplatesRouter({ api, tokens: deps.tokens, tenants, templates, service }),
        createSignatureRequestsRouter({ api, tokens: deps.tokens, tenants, store, service, signing, authenticator: new AuthenticatorCheck(peer('identity')) }),
      ],
      start: () => runtime.start({
        follow: [(c) => userAccess.follow(c), (c) => directory.follow(c), (c) => followSignaturePushes({ ...c, userAccess, emitter: deps.realtime.emitter })],
        scheduler: { queue: jobs, handlers, pollMs: config.schedulerPollMs },
      }),
      async stop() {
        await runtime.stop();
        mailer.close();
      },
    };
  },
};
