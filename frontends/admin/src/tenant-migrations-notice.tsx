import { useQuery } from '@tanstack/react-query';
import { Message } from 'primereact/message';
import type { TenantMigrationsOverview } from '@ledgerline/contracts/identity.contracts.ts';

export const ADMIN_TENANT_MIGRATIONS_URL = '/api/admin/tenant-migrations';
/** While firms are still being updated the dashboard asks again this often. */
const WHILE_MIGRATING_MS = 5000;
/** Firms named in full up to this many; past it, the count. */
const NAMED_FIRMS = 5;

/**
 * After an upgrade each service migrates the firms it found behind in the background, and a
 * firm still behind answers "being updated" (issue 45): the dashboard says how many firms are
 * still closed and in which services, until none is. Nothing shows otherwise.
 */
export function TenantMigrationsNotice() {
  const progress = useQuery<TenantMigrationsOverview>({
    queryKey: [ADMIN_TENANT_MIGRATIONS_URL],
    refetchInterval: (query) => (query.state.data?.pendingFirms.length ? WHILE_MIGRATING_MS : false),
  });
  const data = progress.data;
  if (!data?.pendingFirms.length) return null;
  const services = data.services.filter((s) => s.pending > 0);
  const firms = data.pendingFirms.length <= NAMED_FIRMS
    ? data.pendingFirms.join(', ')
    : `${data.pendingFirms.slice(0, NAMED_FIRMS).join(', ')} and ${data.pendingFirms.length - NAMED_FIRMS} more`;
  const count = data.pendingFirms.length === 1 ? '1 firm is' : `${data.pendingFirms.length} firms are`;
  return (
    <Message
      severity="info"
      className="admin-dashboard__migrations"
      role="status"
      text={`Updating firms after an upgrade: ${count} still being updated (${firms}), in ${services.map((s) => `${s.service} (${s.pending} of ${s.behind})`).join(', ')}. `
        + 'Their users are asked to try again in a few seconds; a firm that stays here failed to migrate: see the logs, then Refresh Schema.'}
    />
  );
}
