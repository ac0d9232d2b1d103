import { describe, expect, it } from '@jest/globals';
import { dashboardTenant } from '../src/dashboard-tenant.ts';

const acme = { id: 1, name: 'Acme Tax', shortName: 'acme', isActive: true };

describe('the dashboard tenant', () => {
  it('is the stored current tenant first', () => {
    expect(dashboardTenant(acme, '/beta/dashboard', 'beta')).toBe('acme');
    expect(dashboardTenant(acme, '/', null)).toBe('acme');
  });

  it("otherwise the first segment when the second is 'dashboard'", () => {
    expect(dashboardTenant(null, '/beta/dashboard', null)).toBe('beta');
    expect(dashboardTenant(null, '/beta/dashboard/', 'gamma')).toBe('beta');
    expect(dashboardTenant(null, '/beta/clients', null)).toBeNull();
  });

  it("otherwise the signed-in firm user's own firm; a platform administrator has none", () => {
    expect(dashboardTenant(null, '/', 'gamma')).toBe('gamma');
    expect(dashboardTenant(null, '/activity', 'gamma')).toBe('gamma');
    expect(dashboardTenant(null, '/', null)).toBeNull();
    expect(dashboardTenant(null, '/', '')).toBeNull();
  });
});
