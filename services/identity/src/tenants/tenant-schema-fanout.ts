import type { Database } from '@ledgerline/kit/db/database.ts';
import { prepareTenantSchema } from '@ledgerline/kit/db/migrations.ts';
import type { ServicePeer } from '@ledgerline/kit/service-module.ts';
import { INTERNAL_MIGRATE_PATH } from '@ledgerline/kit/tenancy/tenant-events.ts';
import { Unavailable } from '@ledgerline/kit/errors.ts';

/**
 * Asks every service (identity included) to migrate its own tables in a tenant schema,
 * and returns every action applied, prefixed by service ("files: 001_create_files").
 * Services own their migrations, so identity never runs another service's SQL. The schema
 * itself (and its migration history) is created here first, once: the services, asked all
 * at once, then only add their tables instead of racing to create the schema.
 */
export async function migrateTenantEverywhere(db: Database, peers: ServicePeer[], schemaName: string, bearerToken: string, only?: Record<string, string[]>): Promise<string[]> {
  await prepareTenantSchema(db, schemaName);
  const results = await Promise.all(peers.map(async (peer) => {
    let response: Response;
    try {
      response = await fetch(`${peer.url}${INTERNAL_MIGRATE_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearerToken}` },
        body: JSON.stringify({ schemaName, only }),
        signal: AbortSignal.timeout(60_000),
      });
    } catch {
      throw new Unavailable(`The ${peer.service} service is unavailable; its tables were not migrated. Try Refresh Schema again shortly.`);
    }
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { message?: string };
      throw new Unavailable(`The ${peer.service} service could not migrate the schema: ${body.message ?? response.status}`);
    }
    return ((await response.json()) as { actions: string[] }).actions;
  }));
  return results.flat();
}
