import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { deriveKey, loadMasterKey } from '@ledgerline/kit/crypto/master-key.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { DirectoryLookup } from '@ledgerline/kit/directory/directory-lookup.ts';
import { createDirectoryReadModel } from '@ledgerline/kit/directory/directory-read-model.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import { MAIL_JOB, mailJob } from '@ledgerline/kit/mail/mail-job.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import type { JobHandler } from '@ledgerline/kit/scheduler/scheduler.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { firmTimeZone } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { REQUEST_MESSAGES, REQUEST_UPLOAD_KEY_PURPOSE, type RequestUploadAssertion } from '@ledgerline/contracts/requests.contracts.ts';
import { createPublicPageRouter, PUBLIC_PAGE_PATH } from './public-page/public-page.router.ts';
import { ReportForwarder } from '@ledgerline/kit/files/report-forwarder.ts';
import { AttemptCounter } from '@ledgerline/kit/http/attempt-counter.ts';
import { createPublicRequestsRouter } from './requests/public-requests.router.ts';
import { followRequestPushes } from './requests/request-push.consumer.ts';
import { RequestReminders, type Firm } from './requests/request-reminders.ts';
import { RequestLinkMaker } from './requests/request-links.ts';
import { asClientDateCountry, firmCountryFromZone } from '@ledgerline/contracts/client-date.ts';
import { RequestService } from './requests/request.service.ts';
import { RequestStore } from './requests/request.store.ts';
import { createRequestsRouter } from './requests/requests.router.ts';
import { createTrackerRequestsRouter } from './templates/tracker-requests.router.ts';
import { loadRequestsConfig } from './requests.config.ts';
import { SecretBox } from '@ledgerline/kit/crypto/secret-box.ts';
import { OrganizerReminders } from './organizers/organizer-reminders.ts';
import { OrganizerService } from './organizers/organizer.service.ts';
import { OrganizerStore } from './organizers/organizer.store.ts';
import { createOrganizersRouter } from './organizers/organizers.router.ts';
import { followOrganizerPushes } from './organizers/organizer-push.consumer.ts';
import { createTrackerOrganizersRouter } from './organizers/tracker-organizers.router.ts';
import { createPublicOrganizersRouter } from './organizers/public-organizers.router.ts';
import { requestsTenantMigrations } from './requests.migrations.ts';

const userAccess = createUserAccessReadModel('requests');
const directory = createDirectoryReadModel('requests');
const jobs = createJobQueue('requests');

/**
 * Document requests (issue 27): checklists of documents a firm asks a client for, uploads
 * from the portal or from links needing no account (the files service stores them), and
 * reminders on the durable scheduler until everything is in.
 */
export const requestsModule: ServiceModule = {
  name: 'requests',
  defaultPort: 8110,
  apiResources: ['request-templates', 'document-requests', 'public/document-requests', 'organizer-templates', 'organizers', 'public/organizers'],
  otherPaths: [PUBLIC_PAGE_PATH],
  migrations: [requestsTenantMigrations, userAccess.migrations, directory.migrations, jobs.migrations, jobs.dueIndexMigrations],
  async init(deps) {
    const config = loadRequestsConfig(deps.env);
    const api = new ApiRegistry('requests');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { peer, tenants, registry } = runtime;
    const master = loadMasterKey(config.encryptionKey, deps.dataDir);
    const store = new RequestStore(userAccess.table);
    const firm = async (shortName: string): Promise<Firm> => {
      const f = await registry.find(shortName);
      if (!f) throw new NotFound('Tenant not found');
      const timeZone = firmTimeZone(f);
      // The firm's country as its console sets it (issue 44); a firm without one, by its zone.
      return { shortName, name: f.name, timeZone, country: asClientDateCountry(f.country) ?? firmCountryFromZone(timeZone) };
    };
    const links = new RequestLinkMaker({ store, publicBaseUrl: config.publicBaseUrl });
    const reminders = new RequestReminders({ store, jobs, firm, links });
    const directoryLookup = new DirectoryLookup(directory, peer('directory'));
    const files = new ReportForwarder(peer('files'), new TokenSigner<RequestUploadAssertion>(deriveKey(master, REQUEST_UPLOAD_KEY_PURPOSE)));
    const service = new RequestService({ store, jobs, reminders, firm, links, directory: directoryLookup, files });
    // Organizers (issue 42): part of this service, since their answers feed the same requests.
    const organizerStore = new OrganizerStore(directory.tables.reportTypes);
    const organizerReminders = new OrganizerReminders({ store: organizerStore, requests: store, jobs, firm });
    const organizers = new OrganizerService({
      store: organizerStore, requests: service, reminders: organizerReminders, directory: directoryLookup, files, firm,
      box: new SecretBox(deriveKey(master, 'organizer-answers')), links,
    });
    const mailer = createMailer(config, deps.logger);
    const handlers: Record<string, JobHandler> = { ...reminders.handlers(), ...organizerReminders.handlers(), [MAIL_JOB]: mailJob(mailer) };

    return {
      api,
      routers: [
        createPublicPageRouter(),
        createPublicRequestsRouter({
          api, tenants, service,
          attempts: new AttemptCounter(config.publicLinkAttemptsPerMinute, REQUEST_MESSAGES.tooManyAttempts), renewals: new AttemptCounter(config.linkRenewalsPerMinute, REQUEST_MESSAGES.tooManyAttempts),
        }),
        createRequestsRouter({ api, tokens: deps.tokens, tenants, store, service }),
        createTrackerRequestsRouter({ tokens: deps.tokens, tenants, store, service, firm }),
        createOrganizersRouter({ api, tokens: deps.tokens, tenants, service: organizers }),
        createPublicOrganizersRouter({ api, tenants, service: organizers, attempts: new AttemptCounter(config.publicLinkAttemptsPerMinute, REQUEST_MESSAGES.tooManyAttempts) }),
        createTrackerOrganizersRouter({ tokens: deps.tokens, tenants, service: organizers, firm }),
      ],
      start: () => runtime.start({
        follow: [(c) => userAccess.follow(c), (c) => directory.follow(c), (c) => followRequestPushes({ ...c, store, emitter: deps.realtime.emitter }),
          (c) => followOrganizerPushes({ ...c, store, emitter: deps.realtime.emitter })],
        scheduler: { queue: jobs, handlers, batchHandlers: reminders.batchHandlers(), pollMs: config.schedulerPollMs },
      }),
      async stop() {
        await runtime.stop();
        mailer.close();
      },
    };
  },
};
