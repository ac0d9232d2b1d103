import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Dropdown } from 'primereact/dropdown';
import { Tag } from 'primereact/tag';
import { readCurrentTenant, saveCurrentTenant, type StoredTenant, type StoredUser } from './auth-storage.ts';
import { COMPANIES_QUERY_KEY, type CompanySummary } from './companies-query.ts';
import { isTenantScopedPath } from './tenant-path.ts';
import { TENANT_SWITCHING_ROLES } from '@ledgerline/contracts/signed-in-frame.ts';

const SWITCHING_ROLES = new Set(TENANT_SWITCHING_ROLES);

/** Admin and DTA users (spec 000 §6) and platform administrators may switch tenants. */
export function canSwitchTenant(user: StoredUser): boolean {
  return user.platformAdmin === true || SWITCHING_ROLES.has(user.role.toLowerCase());
}

/**
 * The header's tenant selector (spec 000 "Shell"): interactive outside tenant-scoped paths,
 * read-only on them; elsewhere hidden until the user has at least one company.
 */
export function TenantSelector({ pathname }: { pathname: string }) {
  const { data: companies } = useQuery<CompanySummary[] | null>({ queryKey: COMPANIES_QUERY_KEY });
  // Choosing a tenant reloads the page, so reading it once per load is enough.
  const current = useMemo(() => readCurrentTenant(), []);
  // On a firm's page the firm is known: shown at once, not after the list (on a phone the
  // selector has a row of its own, and arriving late it pushed the page down).
  if (isTenantScopedPath(pathname) && current) return <CurrentTenant tenant={current} />;
  if (!companies?.length) return null;
  if (isTenantScopedPath(pathname)) return <CurrentTenant tenant={current} />;
  return <TenantDropdown companies={companies} current={current} />;
}

function CurrentTenant({ tenant }: { tenant: StoredTenant | null }) {
  return (
    <div className="tenant-selector" data-testid="tenant-selector">
      <span className="tenant-selector__label">Current Tenant</span>
      <div className="tenant-selector__current">
        {tenant ? (
          <>
            <span className="tenant-selector__name">{tenant.name}</span>
            <Tag value={tenant.shortName} severity="secondary" />
          </>
        ) : (
          <span className="tenant-selector__none">No tenant selected</span>
        )}
      </div>
    </div>
  );
}

function TenantDropdown({ companies, current }: { companies: readonly CompanySummary[]; current: StoredTenant | null }) {
  const active = companies.filter((company) => company.isActive);
  const selected = active.find((company) => company.id === current?.id) ?? null;
  const choose = (company: CompanySummary | null) => {
    if (!company || company.id === selected?.id) return;
    saveCurrentTenant(company);
    // Spec 000 §4: every page and cached query then starts over in the chosen tenant.
    window.location.reload();
  };
  return (
    <div className="tenant-selector" data-testid="tenant-selector">
      <label htmlFor="tenant-selector" className="tenant-selector__label">
        Selected Tenant
      </label>
      <Dropdown
        inputId="tenant-selector"
        className="tenant-selector__dropdown"
        panelClassName="tenant-selector__panel"
        value={selected}
        options={active}
        optionLabel="name"
        dataKey="id"
        onChange={(event) => choose(event.value as CompanySummary | null)}
        placeholder="Select a tenant..."
        filter
        filterBy="name,shortName"
        filterPlaceholder="Search tenants..."
        emptyFilterMessage="No tenant found."
        emptyMessage="No tenant found."
        scrollHeight="300px"
        itemTemplate={(company: CompanySummary) => <TenantOption company={company} />}
      />
    </div>
  );
}

function TenantOption({ company }: { company: CompanySummary }) {
  return (
    <div className="tenant-selector__option">
      <span>{company.name}</span>
      <span className="tenant-selector__short-name">{company.shortName}</span>
    </div>
  );
}
