import { describe, expect, it } from '@jest/globals';
import { clientReportsSubtitle, reportsClient } from '../src/client-reports.page.tsx';
import { fileListPath, withCacheBuster } from '../src/documents.api.ts';
import { autoSelectedClient, CALENDAR_DATE_FORMAT, dateRangeQuery, emptyFilesMessage } from '../src/file-filters.ts';
import { canDeleteFiles, canDeleteFirmDocument } from '../src/file-permissions.ts';
import { installLocalStorage } from '../../ui/test/browser-globals.ts';

describe('file list filters', () => {
  it('sends the picked days as the instants they start and end in the user\'s time zone', () => {
    // Whatever the time of day picked, the bounds are local midnight and local 23:59:59.999.
    const localInstant = (...parts: [number, number, number, number?, number?, number?, number?]) => new Date(...parts).toISOString();
    expect(dateRangeQuery(new Date(2024, 2, 1, 9, 30), new Date(2024, 2, 5, 8, 0))).toEqual({
      startDate: localInstant(2024, 2, 1),
      endDate: localInstant(2024, 2, 5, 23, 59, 59, 999),
    });
    expect(dateRangeQuery(new Date(2024, 11, 31, 23, 30), null)).toEqual({ startDate: localInstant(2024, 11, 31), endDate: null });
    expect(dateRangeQuery(null, new Date(2025, 0, 1))).toEqual({ startDate: null, endDate: localInstant(2025, 0, 1, 23, 59, 59, 999) });
    expect(dateRangeQuery(null, null)).toEqual({ startDate: null, endDate: null });
  });

  it('puts a backwards range the right way round', () => {
    const { startDate, endDate } = dateRangeQuery(new Date(2024, 2, 9), new Date(2024, 2, 1));
    expect(new Date(startDate!).getTime()).toBe(new Date(2024, 2, 1).getTime());
    expect(new Date(endDate!).getTime()).toBe(new Date(2024, 2, 9, 23, 59, 59, 999).getTime());
  });

  it('shows dates as MM/dd/yyyy', () => {
    expect(CALENDAR_DATE_FORMAT).toBe('mm/dd/yy');
  });

  it('builds the files query from the set filters only, in the tenant form', () => {
    const storage = installLocalStorage();
    expect(fileListPath({})).toBe('/api/files');
    storage.setItem('currentTenant', JSON.stringify({ id: 1, name: 'Acme', shortName: 'acme', isActive: true }));
    expect(fileListPath({ clientId: 3, reportTypeId: null, search: '  Zephyrine  ', startDate: '2024-03-01', endDate: null })).toBe(
      '/api/acme/files?clientId=3&search=Zephyrine&startDate=2024-03-01',
    );
    expect(fileListPath({ fileType: 'report', search: ' ' })).toBe('/api/acme/files?fileType=report');
  });

  it('asks for one page: limit and offset after the filters, a first page as offset=0', () => {
    installLocalStorage().setItem('currentTenant', JSON.stringify({ id: 1, name: 'Acme', shortName: 'acme', isActive: true }));
    expect(fileListPath({ clientId: 3, fileType: 'report', limit: 25, offset: 0 })).toBe('/api/acme/files?clientId=3&fileType=report&limit=25&offset=0');
    expect(fileListPath({ search: 'gst', limit: 25, offset: 975 })).toBe('/api/acme/files?search=gst&limit=25&offset=975');
  });

  it('adds the firm documents cache buster to the request only', () => {
    expect(withCacheBuster('/api/acme/files?fileType=firm_document&limit=25&offset=0', 1700000000000)).toBe(
      '/api/acme/files?fileType=firm_document&limit=25&offset=0&_t=1700000000000',
    );
    expect(withCacheBuster('/api/files', 1)).toBe('/api/files?_t=1');
  });

  it('has the empty texts of the reports table', () => {
    expect(emptyFilesMessage(false)).toBe('No files found. Upload a file to get started.');
    expect(emptyFilesMessage(true)).toBe('No files found for this report type.');
  });

  it('says that a content search found nothing, instead of inviting an upload', () => {
    expect(emptyFilesMessage(false, 'invoice 2024')).toBe("No files match 'invoice 2024'.");
    expect(emptyFilesMessage(true, 'invoice')).toBe("No files match 'invoice' in this report type.");
  });

  it('chooses the client only when exactly one is accessible', () => {
    expect(autoSelectedClient([{ id: 7 }])).toBe(7);
    expect(autoSelectedClient([{ id: 7 }, { id: 8 }])).toBeNull();
    expect(autoSelectedClient([])).toBeNull();
    expect(autoSelectedClient(undefined)).toBeNull();
  });
});

describe('client reports', () => {
  it('names the client in the subtitle once known', () => {
    expect(clientReportsSubtitle('Cleo Holdings')).toBe('Reports for Cleo Holdings');
    expect(clientReportsSubtitle(undefined)).toBe('Your company reports');
  });

  it('shows the first accessible client, and nothing outside the access list', () => {
    expect(reportsClient([5, 9])).toBe(5);
    expect(reportsClient([])).toBeNull();
    expect(reportsClient(null)).toBeNull();
  });
});

describe('delete permissions (spec 001 §6)', () => {
  it('shows the files delete button for Admin or CPA, roleId 1, or username admin', () => {
    expect(canDeleteFiles({ role: 'Admin', username: 'priya' })).toBe(true);
    expect(canDeleteFiles({ role: 'CPA', username: 'carl' })).toBe(true);
    expect(canDeleteFiles({ role: 'Renamed', roleId: 1, username: 'x' })).toBe(true);
    expect(canDeleteFiles({ role: 'DTA', username: 'admin' })).toBe(true);
    expect(canDeleteFiles({ role: 'DTA', roleId: 2, username: 'dora' })).toBe(false);
    expect(canDeleteFiles({ role: 'Client', roleId: 4, username: 'cleo' })).toBe(false);
  });

  it('lets only an Admin or the uploader delete a firm document', () => {
    expect(canDeleteFirmDocument({ id: 2, role: 'Admin' }, { uploadedById: 9 })).toBe(true);
    expect(canDeleteFirmDocument({ id: 9, role: 'CPA' }, { uploadedById: 9 })).toBe(true);
    expect(canDeleteFirmDocument({ id: 3, role: 'CPA' }, { uploadedById: 9 })).toBe(false);
  });
});
