import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { StatusDot } from './status-dot.tsx';

/** Spec 000 §2: the five most recent tenants with a status dot, short-name path and schema name. */
export function RecentTenants({ tenants }: { tenants: readonly Company[] }) {
  if (tenants.length === 0) return <p className="recent-tenants__empty">No tenants have been created.</p>;
  return (
    <ul className="recent-tenants">
      {tenants.map((tenant) => (
        <li key={tenant.id} className="recent-tenants__item">
          <StatusDot active={tenant.isActive} />
          <span className="recent-tenants__name">{tenant.name}</span>
          <code className="recent-tenants__path">/{tenant.shortName}</code>
          <span className="recent-tenants__schema">schema: {tenant.schemaName}</span>
        </li>
      ))}
    </ul>
  );
}
