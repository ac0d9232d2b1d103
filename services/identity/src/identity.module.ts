import { createTokenIssuer } from '@ledgerline/kit/auth/token-issuer.ts';
import type { Subscription } from '@ledgerline/kit/bus/bus.ts';
import { createJwksRouter } from '@ledgerline/kit/auth/jwks-router.ts';
import { migrateTenants } from '@ledgerline/kit/db/migrations.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { createAuthRouter } from './auth/auth.router.ts';
import { authenticateCaller } from './auth/authenticate-caller.ts';
import { LoginService } from './auth/login.service.ts';
import { LoginThrottle } from './auth/login-throttle.ts';
import { PlatformAdminStore } from './auth/platform-admin.store.ts';
import { loadIdentityConfig } from './identity.config.ts';
import { identityPlatformMigrations, identityTenantMigrations } from './identity.migrations.ts';
import { DbSigningKeyStore } from './keys/db-signing-key.store.ts';
import { createIdentityProvider } from './providers/create-identity-provider.ts';
import { RoleStore } from './roles/role.store.ts';
import { createRolesRouter } from './roles/roles.router.ts';
import { CompanyStore, TENANT_NOT_FOUND } from './tenants/company.store.ts';
import { createCompaniesRouter } from './tenants/companies.router.ts';
import { createAdminOverviewRouter } from './tenants/admin-overview.router.ts';
import { tenantResolver } from './tenants/tenant-context.ts';
import { TenantService } from './tenants/tenant.service.ts';
import { followClientDeletions } from './users/client-deleted.consumer.ts';
import { ClientPeopleImport, createClientPeopleImportRouter } from './users/client-people-import.ts';
import { followTaxIdReveals } from './users/tax-ids-revealed.consumer.ts';
import { followSigningIdentityFailures } from './mfa/signing-failures.consumer.ts';
import { UserService } from './users/user.service.ts';
import { InvitationService } from './users/invitation.service.ts';
import { InvitationStore } from './users/invitation.store.ts';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { UserStore } from './users/user.store.ts';
import { createUsersRouter } from './users/users.router.ts';
import { NotFound } from '@ledgerline/kit/errors.ts';
import { FirmExportService } from './portability/firm-export.service.ts';
import { FirmImportService } from './portability/firm-import.service.ts';
import { FirmReadableCopy } from './portability/firm-readable-copy.ts';
import { createFirmMovesRouter } from './portability/firm-moves.router.ts';
import { identityPortability } from './portability/identity.portability.ts';
import { deriveKey, loadMasterKey } from '@ledgerline/kit/crypto/master-key.ts';
import { ArchiveSigningKey } from '@ledgerline/kit/portability/archive-signature.ts';
import { MfaService } from './mfa/mfa.service.ts';
import { EmailSignInService } from './mfa/email-sign-in.service.ts';
import { SessionService } from './sessions/session.service.ts';
import { createMailer } from '@ledgerline/kit/mail/mailer.ts';
import { MAIL_JOB, mailJob } from '@ledgerline/kit/mail/mail-job.ts';
import { createJobQueue } from '@ledgerline/kit/scheduler/job-queue.ts';
import { startScheduler, type Scheduler } from '@ledgerline/kit/scheduler/scheduler.ts';
import { createMfaRouter } from './mfa/mfa.router.ts';
import { applyPolicyToProvider } from './mfa/realm-policy.ts';
import { PasskeyService, relyingPartyOf } from './passkeys/passkey.service.ts';
import { createPasskeysRouter } from './passkeys/passkeys.router.ts';

/** Identity's durable jobs: the e-mails of sign-in codes and invitations. */
const jobs = createJobQueue('identity');

export const identityModule: ServiceModule = {
  name: 'identity',
  defaultPort: 8101,
  apiResources: ['auth', 'admin/auth', 'admin/overview', 'admin/tenant-migrations', 'info', 'companies', 'firm-settings', 'users', 'roles', 'export', 'security-settings', 'security-events'],
  otherPaths: ['/.well-known/'],
  migrations: [identityPlatformMigrations, identityTenantMigrations, jobs.migrations, jobs.dueIndexMigrations],
  async init(deps) {
    const config = loadIdentityConfig(deps.env);
    const { db } = deps;
    const api = new ApiRegistry('identity');
    const companies = new CompanyStore(db, config.defaultTimeZone);
    const users = new UserStore();
    const roles = new RoleStore();
    const admins = new PlatformAdminStore(db);
    const issuer = createTokenIssuer({
      issuer: config.tokenIssuer,
      keyStore: new DbSigningKeyStore(db),
      tokenTtlSeconds: config.tokenTtlSeconds,
      rotateAfterSeconds: config.keyRotateAfterSeconds,
      logger: deps.logger,
    });
    const schemaOf = async (tenant: string) => {
      const company = await companies.findByShortName(tenant);
      if (!company) throw new NotFound(TENANT_NOT_FOUND);
      return company.schemaName;
    };
    const provider = createIdentityProvider(config, { db, issuer, schemaOf, logger: deps.logger });
    const throttle = new LoginThrottle({
      maxFailuresPerUser: config.loginMaxFailuresPerUser,
      maxFailuresPerIp: config.loginMaxFailuresPerIp,
      windowSeconds: config.loginThrottleWindowSeconds,
    });
    const masterKey = loadMasterKey(config.encryptionKey, deps.dataDir);
    const mfa = new MfaService(deriveKey(masterKey, 'second-factor-secrets'));
    const signingKey = new ArchiveSigningKey(deriveKey(masterKey, 'firm-archive-signing'), (config.archiveTrustedKeys ?? '').split(',').map((k) => k.trim()).filter(Boolean));
    const sessions = new SessionService({ companies, realtime: deps.realtime, events: mfa.events, tokenTtlSeconds: config.tokenTtlSeconds, provider });
    const passkeys = new PasskeyService({ relyingParty: relyingPartyOf(config.publicBaseUrl), events: mfa.events });
    const logins = new LoginService({ db, companies, users, admins, provider, issuer, throttle, mfa, sessions: sessions.store, passkeys });
    const mailer = createMailer(config, deps.logger);
    const emailSignIn = new EmailSignInService({
      db, companies, users, mfa, logins, jobs, throttle, publicBaseUrl: config.publicBaseUrl,
      requests: new LoginThrottle({ maxFailuresPerUser: config.emailCodeRequestsPerAddress, maxFailuresPerIp: config.loginMaxFailuresPerIp, windowSeconds: config.loginThrottleWindowSeconds }),
    });
    const secondFactorRequired = (q: Queryable, role: string) => mfa.requiredForRole(q, role);
    const invitations = new InvitationService({
      db, companies, users, invitations: new InvitationStore(), provider, jobs, publicBaseUrl: config.publicBaseUrl, secondFactorRequired,
      // E-mail sign-in is the built-in issuer's only (EmailSignInService): a Keycloak firm's invited Client users set a password.
      clientEmailSignIn: async (q) => logins.ownsFactors && (await mfa.settings.get(q)).clientEmailSignIn,
    });
    const userService = new UserService(users, provider, secondFactorRequired, invitations);
    let scheduler: Scheduler | undefined;
    const tenants = new TenantService({ db, companies, provider, peers: deps.peers });
    const tenantOf = tenantResolver(db, companies);
    const authenticated = authenticateCaller({ db, tokens: deps.tokens, companies, users, sessions: sessions.store });
    let clientDeletions: Subscription | undefined;
    let taxIdReveals: Subscription | undefined;
    let signingFailures: Subscription | undefined;
    // Firm moves call the services' internal portability routes as the platform, not as the
    // person who asked (a firm's Admin may export their own firm; the job may outlive a token).
    const systemToken = () => issuer.sign({ sub: '0', username: 'portability', fullName: 'Firm export and import', role: 'Admin', tenant: null, platformAdmin: true });
    const firmExports = new FirmExportService({ db, storage: deps.storage, peers: deps.peers, systemToken, logger: deps.logger, signingKey });
    const openTotp = mfa.openTotp.bind(mfa);
    const firmImports = new FirmImportService({ db, companies, tenants, peers: deps.peers, systemToken, logger: deps.logger, provider, openTotp, signingKey });

    return {
      api,
      portability: identityPortability({ openTotp, sealTotp: mfa.sealTotp.bind(mfa) }),
      routers: [
        createJwksRouter(issuer),
        createAuthRouter({ api, db, logins, mfa, companies, authenticated }),
        createCompaniesRouter({ api, companies, tenants, authenticated }),
        createAdminOverviewRouter({ api, db, companies, users, peers: deps.peers, authenticated }),
        createRolesRouter({ api, roles, provider, authenticated, tenantOf, applyPolicy: (t) => applyPolicyToProvider({ provider, mfa, users }, t.company, t.db) }),
        createFirmMovesRouter({
          api, companies, exports: firmExports, imports: firmImports, signingKey, roles,
          readable: new FirmReadableCopy({ peers: deps.peers, systemToken, logger: deps.logger }), authenticated, tenantOf,
        }),
        createUsersRouter({ api, users, roles, throttle, userService, invitations, authenticated, tenantOf }),
        createClientPeopleImportRouter({ people: new ClientPeopleImport(users, invitations), authenticated, tenantOf }),
        createMfaRouter({ api, db, mfa, logins, emailSignIn, sessions, companies, users, provider, authenticated, tenantOf }),
        createPasskeysRouter({ api, db, mfa, passkeys, logins, companies, authenticated }),
      ],
      async start() {
        // Identity's own tables in every firm's schema; the other services follow tenant events.
        await migrateTenants(db, (await companies.list()).map((c) => c.schemaName), [identityTenantMigrations, jobs.migrations]);
        await firmExports.failInterrupted();
        await firmImports.failInterrupted();
        if (config.adminUsername && config.adminPassword) {
          if (await admins.seed(config.adminUsername, config.adminPassword, config.adminFullName)) {
            deps.logger.info({ username: config.adminUsername }, 'platform administrator created');
          }
        }
        clientDeletions = await followClientDeletions({ db, bus: deps.bus, companies, users, provider, logger: deps.logger });
        taxIdReveals = await followTaxIdReveals({ db, bus: deps.bus, companies, users, events: mfa.events, logger: deps.logger });
        signingFailures = await followSigningIdentityFailures({ db, bus: deps.bus, companies, users, events: mfa.events, logger: deps.logger });
        scheduler = startScheduler({
          db, queue: jobs, handlers: { [MAIL_JOB]: mailJob(mailer) }, logger: deps.logger, pollMs: config.schedulerPollMs,
          tenants: async () => (await companies.current()).list.filter((c) => c.isActive).map((c) => ({ shortName: c.shortName, schema: c.schemaName })),
        });
      },
      async stop() {
        await scheduler?.stop();
        mailer.close();
        await clientDeletions?.close();
        await taxIdReveals?.close();
        await signingFailures?.close();
        await provider.close();
      },
    };
  },
};
