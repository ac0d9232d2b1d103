import { describe, expect, it } from '@jest/globals';
import { headerTitle } from '@ledgerline/ui/header-title.ts';

describe('headerTitle', () => {
  it('takes the second segment when there are two or more', () => {
    const cases: Record<string, string> = {
      '/acme/dashboard': 'Dashboard',
      '/acme/clients': 'Clients',
      '/acme/users': 'Users',
      '/acme/file-upload': 'File Upload',
      '/acme/permissions': 'User Permissions',
      '/acme/report-types': 'Report Types',
      '/acme/activity': 'Activity',
      '/acme/cpa-dashboard': 'CPA Dashboard',
      '/acme/client-reports': 'Client Reports',
      '/acme/firm-details': 'Firm Details',
      '/acme/firm-documents': 'Firm Documents',
      '/acme/account-settings': 'Account Settings',
      '/acme/cpa-dashboard/extra': 'CPA Dashboard',
      '/acme/prompt-templates': 'Prompt Templates',
    };
    for (const [path, title] of Object.entries(cases)) expect([path, headerTitle(path)]).toEqual([path, title]);
  });

  it('names the work areas\' pages, with and without a firm in the path', () => {
    expect(headerTitle('/acme/tasks')).toBe('Tasks');
    expect(headerTitle('/tasks')).toBe('Tasks');
    expect(headerTitle('/acme/compliance-insights')).toBe('AI Insights');
    expect(headerTitle('/messages')).toBe('Messages');
  });

  it('falls back to Dashboard for any other second segment', () => {
    expect(headerTitle('/acme/unknown-page')).toBe('Dashboard');
    expect(headerTitle('/cpa-dashboard/report/5')).toBe('Dashboard');
    expect(headerTitle('/admin/dashboard')).toBe('Dashboard');
  });

  it('matches the whole path when there is one segment', () => {
    const cases: Record<string, string> = {
      '/': 'Dashboard',
      '/prompt-templates': 'Prompt Templates',
      '/file-upload': 'File Upload',
      '/clients': 'Clients',
      '/users': 'Users',
      '/permissions': 'User Permissions',
      '/report-types': 'Report Types',
      '/activity': 'Activity',
    };
    for (const [path, title] of Object.entries(cases)) expect([path, headerTitle(path)]).toEqual([path, title]);
  });

  it('falls back to Dashboard for other single segments, including ones only the tenant form names', () => {
    expect(headerTitle('/unknown-page')).toBe('Dashboard');
    expect(headerTitle('/account-settings')).toBe('Dashboard');
    expect(headerTitle('/cpa-dashboard')).toBe('Dashboard');
  });

  it('titles /admin/tenants Tenant Management, as the spec lists it', () => {
    expect(headerTitle('/admin/tenants')).toBe('Tenant Management');
  });

  it('ignores a trailing slash', () => {
    expect(headerTitle('/clients/')).toBe('Clients');
    expect(headerTitle('/acme/users/')).toBe('Users');
  });
});
