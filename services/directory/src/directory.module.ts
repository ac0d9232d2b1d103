import { createUserAccessReadModel } from '@ledgerline/kit/access/user-access-read-model.ts';
import { deriveKey, loadMasterKey } from '@ledgerline/kit/crypto/master-key.ts';
import { SecretBox } from '@ledgerline/kit/crypto/secret-box.ts';
import { TokenSigner } from '@ledgerline/kit/crypto/signed-token.ts';
import { ApiRegistry } from '@ledgerline/kit/http/api-registry.ts';
import type { ServiceModule } from '@ledgerline/kit/service-module.ts';
import { tenantServiceRuntime } from '@ledgerline/kit/tenancy/tenant-service-runtime.ts';
import { createClientPortalRouter, type PortalLinkClaims } from './client-portal/client-portal.router.ts';
import { ClientImportService } from './client-import/client-import.service.ts';
import { createClientImportRouter } from './client-import/client-import.router.ts';
import { ClientService } from './clients/client.service.ts';
import { ClientStore } from './clients/client.store.ts';
import { createClientsRouter } from './clients/clients.router.ts';
import { loadDirectoryConfig } from './directory.config.ts';
import { directoryTenantMigrations } from './directory.migrations.ts';
import { directoryPortability } from './directory.readable.ts';
import { ClientFieldSettingsStore } from './field-settings/client-field-settings.store.ts';
import { createClientFieldSettingsRouter } from './field-settings/client-field-settings.router.ts';
import { createGoogleDriveAccessRouter } from './google-drive/google-drive-access.router.ts';
import { createGoogleDriveRouter } from './google-drive/google-drive.router.ts';
import { GoogleDriveService, type OAuthState } from './google-drive/google-drive.service.ts';
import { GoogleDriveStore } from './google-drive/google-drive.store.ts';
import { followReportTypeUsage } from './report-types/report-type-usage.consumer.ts';
import { followRolePermissions, RolePermissions } from './clients/role-permissions.ts';
import { ReportTypeStore } from './report-types/report-type.store.ts';
import { createReportTypesRouter } from './report-types/report-types.router.ts';
import { DRIVE_ACCESS_KEY_PURPOSE, type DriveAccessAssertion } from '@ledgerline/contracts/directory.contracts.ts';

const userAccess = createUserAccessReadModel('directory');

export const directoryModule: ServiceModule = {
  name: 'directory',
  defaultPort: 8102,
  // 'auth/google' is longer than identity's 'auth', so the gateway sends the OAuth callback here.
  apiResources: ['clients', 'report-types', 'client-field-settings', 'auth/google'],
  migrations: [directoryTenantMigrations, userAccess.migrations],
  portability: directoryPortability,
  async init(deps) {
    const config = loadDirectoryConfig(deps.env);
    const { logger } = deps;
    const api = new ApiRegistry('directory');
    const runtime = tenantServiceRuntime(deps, { userAccess, tenantPollMs: config.tenantPollMs });
    const { tenants } = runtime;
    const master = loadMasterKey(config.encryptionKey, deps.dataDir);
    const clients = new ClientStore();
    const settings = new ClientFieldSettingsStore();
    const drive = new GoogleDriveService({
      store: new GoogleDriveStore(),
      clients,
      box: new SecretBox(deriveKey(master, 'google-drive-secrets')),
      state: new TokenSigner<OAuthState>(deriveKey(master, 'google-oauth-state')),
      config,
      logger,
    });
    const tokens = deps.tokens;
    const clientService = new ClientService(clients, settings);
    const reportTypes = new ReportTypeStore();
    const imports = new ClientImportService({ clients, service: clientService, settings, reportTypes, identityUrl: runtime.peer('identity') });

    return {
      api,
      routers: [
        // Before the clients' routes: /api/clients/import is not a client id.
        createClientImportRouter({ api, imports, tokens, tenants, logger }),
        createClientsRouter({ api, clients, clientService, permissions: new RolePermissions(userAccess.table), tokens, tenants }),
        createGoogleDriveRouter({ api, drive, tokens, tenants, logger }),
        createGoogleDriveAccessRouter({ drive, tenants, assertions: new TokenSigner<DriveAccessAssertion>(deriveKey(master, DRIVE_ACCESS_KEY_PURPOSE)) }),
        createClientPortalRouter({
          api, clients, tokens, tenants,
          links: new TokenSigner<PortalLinkClaims>(deriveKey(master, 'client-portal-link')),
          linkTtlSeconds: config.portalLinkTtlSeconds,
        }),
        createReportTypesRouter({ api, reportTypes, tokens, tenants }),
        createClientFieldSettingsRouter({ api, settings, tokens, tenants }),
      ],
      start: () => runtime.start({ follow: [(c) => userAccess.follow(c), (c) => followReportTypeUsage(c), (c) => followRolePermissions(c)] }),
      stop: () => runtime.stop(),
    };
  },
};
