import { describe, expect, it } from '@jest/globals';
import { ApiError } from '@ledgerline/ui/api-client.ts';
import {
  addEntries,
  fileTypeOptions,
  initialUploadValues,
  NO_CLIENT,
  pendingEntries,
  uploadDisabled,
  uploadFailureMessage,
  uploadFields,
  uploadFormData,
  uploadProblem,
  visibleFields,
} from '../src/upload-form.model.ts';

describe('upload dialog rules (spec 001 §5)', () => {
  it('starts as a report with the firm document type other', () => {
    expect(initialUploadValues()).toEqual({ fileType: 'report', clientId: null, reportTypeId: null, documentType: 'other' });
    expect(initialUploadValues({ fileType: 'firm_document', clientId: NO_CLIENT })).toMatchObject({ fileType: 'firm_document', clientId: 'none' });
  });

  it('offers firm documents only where asked to', () => {
    expect(fileTypeOptions(false)).toEqual([{ value: 'report', label: 'Report' }, { value: 'company_document', label: 'Company Document' }]);
    expect(fileTypeOptions(true).map((option) => option.value)).toEqual(['report', 'company_document', 'firm_document']);
  });

  it('asks for a report type on reports and a document type on firm documents', () => {
    expect(visibleFields('report')).toEqual({ reportType: true, documentType: false });
    expect(visibleFields('firm_document')).toEqual({ reportType: false, documentType: true });
    expect(visibleFields('company_document')).toEqual({ reportType: false, documentType: false });
  });

  it("says 'Please select a client' for a report without a client, then 'Please select at least one file to upload'", () => {
    const report = initialUploadValues();
    expect(uploadProblem(report, 2)).toBe('Please select a client');
    expect(uploadProblem(report, 0)).toBe('Please select a client');
    expect(uploadProblem({ ...report, clientId: 3 }, 0)).toBe('Please select at least one file to upload');
    expect(uploadProblem({ ...report, clientId: 3 }, 1)).toBeNull();
    // A firm document needs no client; 'No Client' is no client either.
    expect(uploadProblem(initialUploadValues({ fileType: 'firm_document', clientId: NO_CLIENT }), 1)).toBeNull();
    expect(uploadProblem(initialUploadValues({ fileType: 'company_document' }), 1)).toBeNull();
  });

  it('disables Upload while pending, with no files, or for a report with no client', () => {
    const ready = initialUploadValues({ clientId: 3 });
    expect(uploadDisabled(ready, 1, false)).toBe(false);
    expect(uploadDisabled(ready, 1, true)).toBe(true);
    expect(uploadDisabled(ready, 0, false)).toBe(true);
    expect(uploadDisabled({ ...ready, clientId: null }, 1, false)).toBe(true);
    expect(uploadDisabled(initialUploadValues({ fileType: 'firm_document', clientId: NO_CLIENT }), 1, false)).toBe(false);
  });

  it('sends clientId only for a report with a client or a firm document with a real client', () => {
    expect(uploadFields(initialUploadValues({ clientId: 3, reportTypeId: 5 }))).toEqual({ fileType: 'report', clientId: '3', reportTypeId: '5' });
    expect(uploadFields(initialUploadValues({ clientId: 3 }))).toEqual({ fileType: 'report', clientId: '3' });
    expect(uploadFields(initialUploadValues({ fileType: 'firm_document', clientId: NO_CLIENT, documentType: 'pan_card', reportTypeId: 5 }))).toEqual({
      fileType: 'firm_document',
      documentType: 'pan_card',
    });
    expect(uploadFields(initialUploadValues({ fileType: 'firm_document', clientId: 4 }))).toEqual({ fileType: 'firm_document', clientId: '4', documentType: 'other' });
    // Company documents carry neither a client nor a report or document type.
    expect(uploadFields(initialUploadValues({ fileType: 'company_document', clientId: 4, reportTypeId: 5 }))).toEqual({ fileType: 'company_document', clientId: '4' });
    expect(uploadFields(initialUploadValues({ fileType: 'company_document', clientId: NO_CLIENT }))).toEqual({ fileType: 'company_document' });
  });

  it('puts the fields before the file in each request', () => {
    const form = uploadFormData({ fileType: 'report', clientId: '3' }, new Blob(['%PDF-1.4']), 'q1.pdf');
    expect([...form.keys()]).toEqual(['fileType', 'clientId', 'file']);
    expect((form.get('file') as File).name).toBe('q1.pdf');
  });

  it("tells an upload failure with the server's message, or without one", () => {
    expect(uploadFailureMessage(new ApiError(413, JSON.stringify({ message: 'File too large' }), 'Payload Too Large'))).toBe('Failed to upload file: File too large');
    expect(uploadFailureMessage(new ApiError(502, '<html>Bad Gateway</html>', 'Bad Gateway'))).toBe('Failed to upload file');
    expect(uploadFailureMessage(new Error('Network error'))).toBe('Failed to upload file');
  });

  it('lists several chosen files once each, and sends only those not yet uploaded', () => {
    const a = new File(['a'], 'a.pdf', { lastModified: 1 });
    const b = new File(['bb'], 'b.docx', { lastModified: 2 });
    let entries = addEntries([], [a, b]);
    entries = addEntries(entries, [a]);
    expect(entries.map((entry) => [entry.file.name, entry.status, entry.progress])).toEqual([['a.pdf', 'queued', 0], ['b.docx', 'queued', 0]]);
    entries = entries.map((entry) => (entry.file === a ? { ...entry, status: 'done' as const, progress: 100 } : { ...entry, status: 'failed' as const }));
    expect(pendingEntries(entries).map((entry) => entry.file.name)).toEqual(['b.docx']);
  });
});
