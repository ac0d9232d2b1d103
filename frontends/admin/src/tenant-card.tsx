import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import { FIRM_COUNTRY_FACTS } from '@ledgerline/contracts/firm-country.ts';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { RecordActions } from '@ledgerline/ui/record-actions.tsx';
import { StatusDot } from './status-dot.tsx';
import { tenantLoginUrl } from './tenant-access-url.ts';

export interface TenantCardProps {
  company: Company;
  refreshing: boolean;
  onEdit(): void;
  onRefreshSchema(): void;
  onExport(): void;
  onDelete(): void;
}

/** One tenant of the Tenant Management grid (spec 000 §2). */
export function TenantCard({ company, refreshing, onEdit, onRefreshSchema, onExport, onDelete }: TenantCardProps) {
  const loginUrl = tenantLoginUrl(company, window.location);
  return (
    <article className="tenant-card" data-tenant={company.shortName}>
      <header className="tenant-card__header">
        <div>
          <h3 className="tenant-card__name">{company.name}</h3>
          <Tag value={company.shortName} severity="info" className="tenant-card__short-name" />
        </div>
        <StatusDot active={company.isActive} showLabel />
      </header>
      <dl className="tenant-card__facts">
        <dt>Access URL</dt>
        <dd>
          <a href={loginUrl} target="_blank" rel="noopener noreferrer" className="tenant-card__url">
            {loginUrl}
          </a>
        </dd>
        <dt>Schema</dt>
        <dd className="tenant-card__mono">{company.schemaName}</dd>
        <dt>Country</dt>
        <dd>{company.country ? `${FIRM_COUNTRY_FACTS[company.country].label} · ${company.currency}` : 'Not set'}</dd>
        <dt>Time Zone</dt>
        <dd>{company.timeZoneIsDefault ? `${company.timeZone} (platform default)` : company.timeZone}</dd>
        <dt>Created</dt>
        <dd>{formatDate(company.createdAt)}</dd>
      </dl>
      <footer className="tenant-card__actions">
        <Button label="Open" icon="pi pi-external-link" size="small" outlined onClick={() => window.open(loginUrl, '_blank', 'noopener')} />
        <span className="tenant-card__spacer" />
        <RecordActions name={company.name} onEdit={onEdit} onDelete={onDelete}>
          <Button
            icon="pi pi-refresh"
            rounded
            text
            aria-label={`Refresh schema of ${company.name}`}
            tooltip="Refresh schema"
            tooltipOptions={{ position: 'top' }}
            loading={refreshing}
            onClick={onRefreshSchema}
          />
          <Button
            icon="pi pi-download"
            rounded
            text
            aria-label={`Export ${company.name}`}
            tooltip="Export firm"
            tooltipOptions={{ position: 'top' }}
            onClick={onExport}
          />
        </RecordActions>
      </footer>
    </article>
  );
}
