import { describe, expect, it } from '@jest/globals';
import { renderToStaticMarkup } from 'react-dom/server';
import { FIRM_DOCUMENT_TYPES } from '@ledgerline/contracts/files.contracts.ts';
import { formatMegabytes } from '@ledgerline/ui/file-size.ts';
import { DocumentTypeBadge } from '../src/firm-documents.page.tsx';
import { DOCUMENT_TYPE_OPTIONS, documentTypeLabel, documentTypeSeverity } from '../src/firm-document.model.ts';

describe('firm documents', () => {
  it('labels every document type as the spec names it, unknown ones as Other Firm Document', () => {
    expect(documentTypeLabel('pan_card')).toBe('PAN Card');
    expect(documentTypeLabel('memorandum_of_association')).toBe('Memorandum of Association');
    expect(documentTypeLabel('other')).toBe('Other Firm Document');
    expect(documentTypeLabel('tax_return')).toBe('Other Firm Document');
    expect(documentTypeLabel('toString')).toBe('Other Firm Document');
    expect(documentTypeLabel(null)).toBe('Other Firm Document');
    expect(documentTypeSeverity('weird')).toBe(documentTypeSeverity('other'));
    expect(DOCUMENT_TYPE_OPTIONS.map((option) => option.label)).toEqual(Object.values(FIRM_DOCUMENT_TYPES));
  });

  it('renders the badge with the label', () => {
    const html = renderToStaticMarkup(<DocumentTypeBadge type="gst_registration" />);
    expect(html).toContain('GST Registration');
    expect(html).toContain('document-type-badge');
    expect(renderToStaticMarkup(<DocumentTypeBadge type={null} />)).toContain('Other Firm Document');
  });

  it('shows sizes in MB with 2 decimals', () => {
    expect(formatMegabytes(3_355_443)).toBe('3.20 MB');
  });
});
