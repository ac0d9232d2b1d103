import { describe, expect, it } from '@jest/globals';
import { TAX_JURISDICTIONS, type InvoiceField } from '@ledgerline/contracts/billing-tax.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { invoiceTotals, type InvoiceLineInput } from '@ledgerline/contracts/invoice-totals.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import { winAnsiSafe } from '@ledgerline/kit/pdf/text-layout.ts';
import { renderInvoicePdf, type InvoiceIssuer } from '../src/invoices/invoice-pdf.ts';
import type { StoredInvoice } from '../src/invoices/invoice.store.ts';
import { execFileSync } from 'node:child_process';
import { checkedPdf, checkedPdfText as checkedText } from './support/checked-pdf.ts';

interface Case { country: FirmCountry; currency: string; firmState: string | null; clientState: string | null; registration: string | null; lines: InvoiceLineInput[] }

const line = (description: string, unitPrice: number, taxRate: number, extra: Partial<InvoiceLineInput> = {}): InvoiceLineInput =>
  ({ description, serviceId: null, quantity: 1, unitPrice, taxRate, ...extra });

const CASES: Record<string, Case> = {
  'US (no sales tax)': { country: 'US', currency: 'USD', firmState: 'US-NY', clientState: 'US-NY', registration: null, lines: [line('Form 1040 preparation', 75000, 0)] },
  'UK VAT invoice (HMRC VAT Notice 700/21 §16.3)': { country: 'GB', currency: 'GBP', firmState: null, clientState: 'GB-ENG', registration: 'GB980780684', lines: [line('Self assessment return', 45000, 20, { quantity: 2 })] },
  'Australian tax invoice (ATO; GST Act s 29-70)': { country: 'AU', currency: 'AUD', firmState: 'AU-NSW', clientState: 'AU-VIC', registration: '51824753556', lines: [line('Individual tax return', 33000, 10)] },
  'Indian tax invoice, same State (CGST Rules r 46)': { country: 'IN', currency: 'INR', firmState: 'IN-MH', clientState: 'IN-MH', registration: '27AAPFU0939F1ZV', lines: [line('Accounting and bookkeeping', 1000000, 18, { sacCode: '998222' })] },
  'Indian tax invoice, across States (IGST Act s 12(2))': { country: 'IN', currency: 'INR', firmState: 'IN-MH', clientState: 'IN-KA', registration: '27AAPFU0939F1ZV', lines: [line('Individual tax preparation', 500000, 18, { sacCode: '998232' })] },
  'Canadian invoice, HST in Ontario (CRA; ITC Information Regulations s 3)': { country: 'CA', currency: 'CAD', firmState: 'CA-ON', clientState: 'CA-ON', registration: '123456782RT0001', lines: [line('T1 return', 40000, 13)] },
};

function invoiceOf(c: Case): { invoice: StoredInvoice; issuer: InvoiceIssuer } {
  const totals = invoiceTotals(c.lines, { country: c.country, firmState: c.firmState, clientState: c.clientState });
  const invoice: StoredInvoice = {
    id: 1, number: 'INV-0042', clientId: 7, clientName: 'Harbour Traders Ltd', clientState: c.clientState, status: 'sent',
    issueDate: '2026-11-02', dueDate: '2026-11-17', currency: c.currency, country: c.country, lines: totals.lines.map((l) => ({ ...l, sacCode: l.sacCode ?? null })),
    subtotal: totals.subtotal, tax: totals.tax, total: totals.total, amountPaid: 0, balance: totals.total, taxSummary: totals.taxSummary,
    notes: 'Thank you for your business.', links: {}, payments: [], sentAt: null, voidedAt: null, createdAt: '', updatedAt: '',
    clientAddress: '9 Quay Road, Portside', clientRegistration: c.country === 'IN' && c.clientState === 'IN-KA' ? '29AAPFU0939F1ZX' : null,
  };
  return { invoice, issuer: { name: 'Ledger & Co', address: '1 Market Square, Capital City', taxRegistration: c.registration, bankDetails: 'Account 12345678, sort 12-34-56', payOnlineUrl: null } };
}

/** The text that shows a required field is on the invoice. */
function expectedText(field: InvoiceField, c: Case, invoice: StoredInvoice, issuer: InvoiceIssuer): string[] {
  const money = (v: number) => winAnsiSafe(formatMinorUnits(v, invoice.currency));
  const rule = TAX_JURISDICTIONS[c.country];
  switch (field) {
    case 'title': return [rule.registration ? rule.documentTitle : 'Invoice'];
    case 'number': return ['Invoice number: INV-0042'];
    case 'issueDate': return [`Date of issue: ${clientDate('2026-11-02', c.country)}`];
    case 'supplyDate': return [`Time of supply: ${clientDate('2026-11-02', c.country)}`];
    case 'dueDate': return [`Due date: ${clientDate('2026-11-17', c.country)}`];
    case 'firmName': return [issuer.name];
    case 'firmAddress': return [issuer.address!];
    case 'firmRegistration': return [`${rule.registration!.label}: ${issuer.taxRegistration}`];
    case 'clientName': return [invoice.clientName];
    case 'clientAddress': return [invoice.clientAddress!];
    case 'clientRegistration': return [`Recipient GSTIN: ${invoice.clientRegistration ?? 'unregistered'}`];
    case 'lineDescription': return invoice.lines.map((l) => l.description);
    case 'lineQuantity': return ['Qty', ...invoice.lines.map((l) => String(l.quantity))];
    case 'lineUnitPrice': return ['Unit price', ...invoice.lines.map((l) => money(l.unitPrice))];
    case 'lineRate': return invoice.lines.map((l) => `${l.taxRate}%`);
    case 'lineSac': return ['SAC', ...invoice.lines.map((l) => l.sacCode!)];
    case 'subtotal': return [money(invoice.subtotal)];
    case 'taxByComponent': return [...invoice.taxSummary.map((s) => `${s.code} ${s.ratePercent}%`), `Total ${rule.taxName} ${money(invoice.tax)}`];
    case 'total': return [`Total (${invoice.currency}) ${money(invoice.total)}`];
    case 'placeOfSupply': return [`Place of supply: ${c.clientState === 'IN-KA' ? 'Karnataka (IN-KA)' : 'Maharashtra (IN-MH)'}`];
  }
}

describe('invoice PDF: every field its jurisdiction requires, in a PDF qpdf accepts', () => {
  it.each(Object.entries(CASES))('%s', async (_name, c) => {
    const { invoice, issuer } = invoiceOf(c);
    const text = checkedText(await renderInvoicePdf(invoice, issuer));
    for (const field of TAX_JURISDICTIONS[c.country].requiredFields) {
      for (const expected of expectedText(field, c, invoice, issuer)) expect({ field, found: text.includes(expected.replace(/\s+/g, ' ')) }).toEqual({ field, found: true });
    }
  });

  it('India: CGST and SGST within the State, IGST across, each with its amount', async () => {
    const same = checkedText(await renderInvoicePdf(invoiceOf(CASES['Indian tax invoice, same State (CGST Rules r 46)']!).invoice, invoiceOf(CASES['Indian tax invoice, same State (CGST Rules r 46)']!).issuer));
    expect(same).toContain('CGST 9% on Rs.10,000.00 Rs.900.00');
    expect(same).toContain('SGST 9% on Rs.10,000.00 Rs.900.00');
    expect(same).not.toContain('IGST');
    const across = checkedText(await renderInvoicePdf(invoiceOf(CASES['Indian tax invoice, across States (IGST Act s 12(2))']!).invoice, invoiceOf(CASES['Indian tax invoice, across States (IGST Act s 12(2))']!).issuer));
    expect(across).toContain('IGST 18% on Rs.5,000.00 Rs.900.00');
    expect(across).not.toContain('CGST');
  });

  it('an unregistered firm issues a plain "Invoice", never a tax invoice', async () => {
    const { invoice, issuer } = invoiceOf({ ...CASES['Australian tax invoice (ATO; GST Act s 29-70)']!, registration: null });
    const text = checkedText(await renderInvoicePdf({ ...invoice, taxSummary: [], tax: 0 }, issuer));
    expect(text.startsWith('Invoice ')).toBe(true);
    expect(text).not.toContain('Tax invoice');
    expect(text).not.toContain('ABN');
  });

  it('with no payment provider it shows the bank details and no card payment; a void one shows VOID and asks for nothing', async () => {
    const { invoice, issuer } = invoiceOf(CASES['US (no sales tax)']!);
    const open = checkedText(await renderInvoicePdf(invoice, issuer));
    expect(open).toContain('Bank transfer: Account 12345678, sort 12-34-56');
    expect(open).not.toMatch(/card|Pay online/i);
    const voided = checkedText(await renderInvoicePdf({ ...invoice, status: 'void', balance: 0 }, issuer));
    expect(voided).toContain('Invoice — VOID');
    expect(voided).not.toContain('How to pay');
  });

  it('wraps long text onto new pages rather than off the page', async () => {
    const c = CASES['US (no sales tax)']!;
    const many = Array.from({ length: 80 }, (_, i) => line(`Consultation ${i + 1}: ${'a long description of the work '.repeat(3)}`, 1000 + i, 0));
    const { invoice, issuer } = invoiceOf({ ...c, lines: many });
    const { text, path } = checkedPdf(await renderInvoicePdf(invoice, issuer));
    expect(text).toContain('Consultation 80:');
    expect(execFileSync('pdfinfo', [path], { encoding: 'utf8' })).toMatch(/Pages:\s+[2-9]/);
  });
});
