import { describe, expect, it } from '@jest/globals';
import { headerTitle } from '@ledgerline/ui/header-title.ts';

describe('headerTitle', () => {
  it('names the section after a tenant short name', () => {
    const cases: Record<string, string> = {
      '/acme/dashboard': 'Dashboard',
      '/acme/clients': 'Clients',
      '/acme/users': 'Users',
      '/acme/file-upload': 'File Upload',
      '/acme/permissions': 'User Permissions',
      '/acme/report-types': 'Report Types',
      '/acme/activity': 'Activity',
      '/acme/cpa-dashboard': 'Reports',
      '/acme/client-reports': 'Client Reports',
      '/acme/firm-details': 'Firm Details',
      '/acme/firm-documents': 'Firm Documents',
      '/acme/account-settings': 'Account Settings',
      '/acme/cpa-dashboard/extra': 'Reports',
      '/acme/prompt-templates': 'Prompt Templates',
    };
    for (const [path, title] of Object.entries(cases)) expect([path, headerTitle(path)]).toEqual([path, title]);
  });

  it('names the same sections without a tenant, including the work areas of design §7', () => {
    const cases: Record<string, string> = {
      '/': 'Dashboard',
      '/prompt-templates': 'Prompt Templates',
      '/file-upload': 'File Upload',
      '/clients': 'Clients',
      '/users': 'Users',
      '/permissions': 'User Permissions',
      '/report-types': 'Report Types',
      '/activity': 'Activity',
      '/cpa-dashboard': 'Reports',
      '/cpa-dashboard/report/5': 'Reports',
      '/account-settings': 'Account Settings',
      '/tasks': 'Tasks',
      '/acme/compliance': 'Compliance',
      '/compliance-insights': 'AI Insights',
      '/acme/messages': 'Messages',
      '/roles': 'Roles',
      '/acme/settings': 'Settings',
    };
    for (const [path, title] of Object.entries(cases)) expect([path, headerTitle(path)]).toEqual([path, title]);
  });

  it('falls back to Dashboard for an unknown section', () => {
    expect(headerTitle('/acme/nowhere')).toBe('Dashboard');
    expect(headerTitle('/nowhere')).toBe('Dashboard');
  });

  it('titles the administrator pages', () => {
    expect(headerTitle('/admin/tenants')).toBe('Tenant Management');
    expect(headerTitle('/admin/dashboard')).toBe('Admin Dashboard');
  });

  it('ignores a trailing slash', () => {
    expect(headerTitle('/clients/')).toBe('Clients');
    expect(headerTitle('/acme/users/')).toBe('Users');
  });
});
