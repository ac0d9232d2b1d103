import type { TenantMigrationsOverview } from '@ledgerline/contracts/identity.contracts.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import { INTERNAL_MIGRATION_PROGRESS_PATH } from '@ledgerline/kit/tenancy/tenant-events.ts';
import type { TenantMigrationProgress } from '@ledgerline/kit/tenancy/tenant-migration-gate.ts';

/** A service that has not answered in this long is listed unreachable: the console must not hang on it. */
const PEER_TIMEOUT_MS = 5000;

/**
 * The admin console's upgrade progress: every service's firms still closed since its start,
 * asked of each service (each keeps its own background migrations: kit TenantMigrationGate),
 * with the caller's platform-administrator token. One request per service, whatever the
 * number of firms.
 */
export async function tenantMigrationsOverview(peers: readonly ServicePeer[], bearerToken: string): Promise<TenantMigrationsOverview> {
  // Identity migrates its own tables before it listens: it never has firms to report.
  const services = await Promise.all(peers.filter((peer) => peer.service !== 'identity').map(async (peer) => {
    try {
      const r = await fetch(`${peer.url}${INTERNAL_MIGRATION_PROGRESS_PATH}`, {
        headers: { authorization: `Bearer ${bearerToken}` }, signal: AbortSignal.timeout(PEER_TIMEOUT_MS),
      });
      if (!r.ok) throw new Error(String(r.status));
      return { service: peer.service, reachable: true, ...(await r.json() as TenantMigrationProgress) };
    } catch {
      return { service: peer.service, reachable: false, behind: 0, pending: 0, firms: [] };
    }
  }));
  return {
    pendingFirms: [...new Set(services.flatMap((s) => s.firms))].sort(),
    services: services.map(({ service, reachable, behind, pending }) => ({ service, reachable, behind, pending })),
  };
}
