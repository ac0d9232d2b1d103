import { describe, expect, it } from '@jest/globals';
import type { Company } from '@ledgerline/contracts/identity.contracts.ts';
import { schemaRefreshSummary } from '../src/companies.api.ts';
import { tenantAccessUrl, tenantLoginUrl } from '../src/tenant-access-url.ts';
import { filterTenants, hasFilters, NO_FILTERS, showingLine } from '../src/tenant-filters.ts';
import { checkFirstAdmin, checkTenantForm, EMPTY_TENANT_FORM, normalizeShortName, tenantFormValues, withCountry, withShortName } from '../src/tenant-form.model.ts';

const company = (fields: Partial<Company>): Company => ({
  id: 1, name: 'Acme Tax', shortName: 'acme', schemaName: 'acme', customDomain: null, customSubdomain: null,
  urlPattern: 'path', isActive: true, timeZone: 'UTC', timeZoneIsDefault: true, country: null, currency: null, createdAt: '2026-01-02T00:00:00Z', ...fields,
});
const here = { protocol: 'https:', host: 'portal.example.org', origin: 'https://portal.example.org' };

describe('tenant access URL (spec 000 §3)', () => {
  it('uses the subdomain or domain only with their pattern, else the short-name path', () => {
    expect(tenantAccessUrl(company({}), here)).toBe('https://portal.example.org/acme');
    expect(tenantAccessUrl(company({ urlPattern: 'subdomain', customSubdomain: 'acme' }), here)).toBe('https://acme.portal.example.org');
    expect(tenantAccessUrl(company({ urlPattern: 'subdomain' }), here)).toBe('https://portal.example.org/acme');
    expect(tenantAccessUrl(company({ urlPattern: 'domain', customDomain: 'acme-tax.com' }), here)).toBe('https://acme-tax.com');
    expect(tenantAccessUrl(company({ urlPattern: 'domain', customDomain: 'http://acme.test' }), here)).toBe('http://acme.test');
    expect(tenantAccessUrl(company({ urlPattern: 'path', customDomain: 'acme-tax.com' }), here)).toBe('https://portal.example.org/acme');
    expect(tenantLoginUrl(company({}), here)).toBe('https://portal.example.org/acme/login');
  });
});

describe('tenant filters', () => {
  const list = [company({ id: 1 }), company({ id: 2, name: 'Beta Books', shortName: 'beta', isActive: false })];

  it('searches name and short name case-insensitively and filters by status', () => {
    expect(filterTenants(list, NO_FILTERS).map((c) => c.id)).toEqual([1, 2]);
    expect(filterTenants(list, { search: 'BOOKS', status: 'all' }).map((c) => c.id)).toEqual([2]);
    expect(filterTenants(list, { search: 'acm', status: 'all' }).map((c) => c.id)).toEqual([1]);
    expect(filterTenants(list, { search: '', status: 'active' }).map((c) => c.id)).toEqual([1]);
    expect(filterTenants(list, { search: 'acme', status: 'inactive' })).toEqual([]);
    expect(hasFilters(NO_FILTERS)).toBe(false);
    expect(hasFilters({ search: ' ', status: 'all' })).toBe(false);
    expect(hasFilters({ search: '', status: 'inactive' })).toBe(true);
    expect(showingLine(1, 2)).toBe('Showing 1 of 2 tenants');
  });
});

describe('tenant form', () => {
  it('lowercases and strips the short name; the schema name follows it in create mode only', () => {
    expect(normalizeShortName('Acme Tax-2!')).toBe('acmetax2');
    expect(withShortName(EMPTY_TENANT_FORM, 'Acme-1', 'create')).toMatchObject({ shortName: 'acme1', schemaName: 'acme1' });
    const editing = tenantFormValues(company({ schemaName: 'acme_legacy' }));
    expect(withShortName(editing, 'acmenew', 'edit')).toMatchObject({ shortName: 'acmenew', schemaName: 'acme_legacy' });
  });

  it("reports the spec's messages and builds the request body", () => {
    expect(checkTenantForm({ ...EMPTY_TENANT_FORM, shortName: 'Bad Name', schemaName: 'bad-schema' })).toEqual({
      ok: false,
      errors: {
        name: 'Company name is required',
        shortName: 'Only lowercase letters and numbers allowed',
        schemaName: 'Only lowercase letters, numbers, and underscores allowed',
      },
    });
    expect(checkTenantForm({ ...EMPTY_TENANT_FORM, name: 'Acme', shortName: 'acme' })).toMatchObject({ ok: false, errors: { schemaName: 'Schema name is required' } });
    expect(checkTenantForm({ ...EMPTY_TENANT_FORM, name: ' Acme ', shortName: 'acme', schemaName: 'acme', isActive: false })).toEqual({
      ok: true,
      data: { name: 'Acme', shortName: 'acme', schemaName: 'acme', urlPattern: 'path', customDomain: null, customSubdomain: null, isActive: false, timeZone: null, country: null },
    });
  });

  it('asks a new firm for its country, fills an empty time zone from it and keeps a chosen one', () => {
    const named = { ...EMPTY_TENANT_FORM, name: 'Hudson & Pine CPAs', shortName: 'hudson', schemaName: 'hudson' };
    expect(checkTenantForm(named, 'create')).toEqual({ ok: false, errors: { country: 'Country is required' } });
    const american = withCountry(named, 'US');
    expect(american).toMatchObject({ country: 'US', timeZone: 'America/New_York' });
    expect(checkTenantForm(american, 'create')).toMatchObject({ ok: true, data: { country: 'US', timeZone: 'America/New_York' } });
    expect(withCountry({ ...named, timeZone: 'America/Chicago' }, 'US')).toMatchObject({ timeZone: 'America/Chicago' });
    // A firm from before countries is edited without one; its saved zone and country come back into the form.
    expect(checkTenantForm(tenantFormValues(company({})), 'edit')).toMatchObject({ ok: true, data: { country: null, timeZone: null } });
    expect(tenantFormValues(company({ country: 'IN', timeZone: 'Asia/Kolkata', timeZoneIsDefault: false }))).toMatchObject({ country: 'IN', timeZone: 'Asia/Kolkata' });
  });

  it('takes the first Admin whole or not at all, with the users call\'s own rules', () => {
    expect(checkFirstAdmin(EMPTY_TENANT_FORM)).toEqual({ ok: true, data: null });
    expect(checkFirstAdmin({ ...EMPTY_TENANT_FORM, adminUsername: 'ad' })).toEqual({
      ok: false,
      errors: { adminUsername: 'Username must be at least 3 characters', adminFullName: 'Full name is required', adminPassword: 'Password must be at least 6 characters' },
    });
    expect(checkFirstAdmin({ ...EMPTY_TENANT_FORM, adminUsername: ' ada ', adminFullName: 'Ada Admin', adminPassword: 'secret-1' }))
      .toEqual({ ok: true, data: { username: 'ada', fullName: 'Ada Admin', password: 'secret-1' } });
  });

  it('words the schema refresh result', () => {
    expect(schemaRefreshSummary([])).toBe('Schema is already up to date.');
    expect(schemaRefreshSummary(['files: 001_create', 'tasks: 001_create'])).toBe('2 schema updates applied.');
  });
});
