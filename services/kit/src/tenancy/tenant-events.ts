/** Payload of `tenant.upserted` / `tenant.deleted` (identity publishes them through its outbox). */
export interface TenantEventPayload {
  id: number;
  name: string;
  shortName: string;
  schemaName: string;
  isActive: boolean;
  urlPattern: 'path' | 'subdomain' | 'domain';
  customDomain: string | null;
  customSubdomain: string | null;
  /** The firm's IANA time zone (absent from an identity older than the field: UTC). */
  timeZone?: string;
  /** The firm's country (ISO 3166-1 alpha-2; null or absent: not set, or an identity older than the field). */
  country?: string | null;
}

/** The zone a firm's dates are read in ("today", "due", "overdue", reminder instants). */
export const firmTimeZone = (tenant: Pick<TenantEventPayload, 'timeZone'>): string => tenant.timeZone ?? 'UTC';

export const TENANT_UPSERTED = 'tenant.upserted';
export const TENANT_DELETED = 'tenant.deleted';

/**
 * Identity's internal listing of every firm (service port only; the gateway never routes /internal).
 * The answer carries the list's version (TENANT_LIST_VERSION_HEADER); asked with
 * `?since=<version>` for a list that has not changed since, identity answers 304 and no body.
 */
export const INTERNAL_TENANTS_PATH = '/internal/tenants';
export const TENANT_LIST_VERSION_HEADER = 'x-tenant-list-version';
/** Every service's internal "migrate this tenant schema" call (identity fans out to it). */
export const INTERNAL_MIGRATE_PATH = '/internal/tenants/migrate';
/** Every service's internal "which firms are you still migrating since your start" (the admin console's upgrade progress). */
export const INTERNAL_MIGRATION_PROGRESS_PATH = '/internal/tenants/migration-progress';
