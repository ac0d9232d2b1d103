import { Invalid } from '../errors.ts';

/** Platform-wide tables (tenants, outbox, inbox…) live here, never in a tenant schema. */
export const PLATFORM_SCHEMA = 'portal';

// Postgres identifiers are at most 63 bytes; lower case only, so a quoted name is
// the same name a human would type unquoted.
const SCHEMA_NAME = /^[a-z][a-z0-9_]{0,62}$/;

// Schemas a tenant must never be mapped to: the platform's own, Postgres' defaults
// and the `pg_` prefix Postgres reserves for itself.
const RESERVED = new Set([PLATFORM_SCHEMA, 'public', 'information_schema']);

/** Throws `Invalid` unless `name` is a schema identifier we are willing to quote into SQL. */
export function assertSchemaName(name: string): string {
  if (!SCHEMA_NAME.test(name)) {
    throw new Invalid('Schema name must start with a letter and contain only a-z, 0-9 and _ (max 63).');
  }
  return name;
}

/** The ONE mapping from a tenant's `schemaName` to the database schema its data lives in. */
export function tenantSchema(schemaName: string): string {
  assertSchemaName(schemaName);
  if (RESERVED.has(schemaName) || schemaName.startsWith('pg_')) {
    throw new Invalid(`Schema name "${schemaName}" is reserved.`);
  }
  return schemaName;
}

/** Quotes an identifier for SQL text (doubling embedded quotes, as Postgres does). */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** The search path a schema handle runs with: its schema first, then `public` (extensions). */
export function searchPathFor(schema: string): string {
  return `${quoteIdent(assertSchemaName(schema))}, public`;
}

/** The search path of queries made on the Database itself (platform code qualifies its names). */
export const DEFAULT_SEARCH_PATH = 'public';
