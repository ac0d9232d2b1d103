import { TextLayout } from '@ledgerline/kit/pdf/text-layout.ts';
import { TAX_JURISDICTIONS, taxComponentLabel } from '@ledgerline/contracts/billing-tax.ts';
import { clientDate } from '@ledgerline/contracts/client-date.ts';
import { asClientDateCountry } from '@ledgerline/contracts/client-date.ts';
import type { FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { formatMinorUnits } from '@ledgerline/contracts/money.ts';
import { subdivisionLabel } from '@ledgerline/contracts/subdivision-names.ts';
import type { StoredInvoice } from './invoice.store.ts';

/** What the invoice says about the firm (its name from identity, the rest from billing settings). */
export interface InvoiceIssuer {
  name: string; address: string | null; taxRegistration: string | null; bankDetails: string | null;
  /** Where the client pays online, when a provider is configured; else the bank details are the way. */
  payOnlineUrl: string | null;
}

/**
 * The title an invoice carries: the jurisdiction's tax-invoice title ("VAT invoice", "Tax
 * invoice", "Tax Invoice") when the firm is registered for the tax, else "Invoice" (an
 * unregistered business may not issue a tax invoice).
 */
export function invoiceTitle(country: FirmCountry, registered: boolean): string {
  return registered ? TAX_JURISDICTIONS[country].documentTitle : 'Invoice';
}

/**
 * The invoice as a PDF, with every field its jurisdiction asks for (TAX_JURISDICTIONS'
 * requiredFields; test/invoice-pdf.test.ts reads each one back with pdftotext).
 */
export async function renderInvoicePdf(invoice: StoredInvoice, issuer: InvoiceIssuer, options: { preview?: boolean } = {}): Promise<Uint8Array> {
  const country = (asClientDateCountry(invoice.country) ?? 'US') as FirmCountry;
  const rule = TAX_JURISDICTIONS[country];
  const money = (minor: number) => formatMinorUnits(minor, invoice.currency);
  const date = (d: string | null) => (d ? clientDate(d, country) : 'on sending');
  const title = invoiceTitle(country, !!(rule.registration && issuer.taxRegistration));
  const page = await TextLayout.create({ title: `${title} ${invoice.number ?? 'draft'} — ${issuer.name}` });

  page.text(invoice.status === 'void' ? `${title} — VOID` : title, { size: 20, bold: true });
  // The editor's live preview: plainly marked, so a saved or printed copy is never taken for the invoice.
  if (options.preview) page.text('DRAFT – PREVIEW: not saved, not numbered and not sent', { bold: true });
  else if (invoice.status === 'draft') page.text('Draft: not numbered and not sent', { muted: true });
  page.space(6);
  page.text(issuer.name, { size: 12, bold: true });
  if (issuer.address) page.text(issuer.address);
  if (rule.registration && issuer.taxRegistration) page.text(`${rule.registration.label}: ${issuer.taxRegistration}`);
  page.space();

  page.text(`Invoice number: ${invoice.number ?? 'not numbered (draft)'}`, { bold: true });
  page.text(`Date of issue: ${date(invoice.issueDate)}`);
  // UK: the time of supply (tax point) is the issue date for an invoice issued for the service (VAT Notice 700 §14).
  if (country === 'GB') page.text(`Time of supply: ${date(invoice.issueDate)}`);
  page.text(`Due date: ${date(invoice.dueDate)}`);
  if (country === 'IN') {
    const place = invoice.clientState;
    page.text(`Place of supply: ${place ? subdivisionLabel(place) : 'not stated'}`);
  }
  page.space();

  page.text('Bill to', { bold: true, muted: true });
  page.text(invoice.clientName, { bold: true });
  if (invoice.clientAddress) page.text(invoice.clientAddress);
  if (country === 'IN') page.text(`Recipient GSTIN: ${invoice.clientRegistration ?? 'unregistered'}`);
  page.space();

  const showSac = country === 'IN';
  const taxLabel = country === 'US' ? 'Tax rate' : `${rule.taxName} rate`;
  const header = [
    { text: 'Description', width: showSac ? 0.34 : 0.44 }, ...(showSac ? [{ text: 'SAC', width: 0.1 }] : []),
    { text: 'Qty', width: 0.08, align: 'right' as const }, { text: 'Unit price', width: 0.16, align: 'right' as const },
    { text: taxLabel, width: 0.14, align: 'right' as const }, { text: 'Amount', width: 0.18, align: 'right' as const },
  ];
  page.row(header, { bold: true });
  page.rule();
  for (const line of invoice.lines) {
    page.row([
      { text: line.description, width: header[0]!.width }, ...(showSac ? [{ text: line.sacCode ?? '', width: 0.1 }] : []),
      { text: String(line.quantity), width: 0.08, align: 'right' }, { text: money(line.unitPrice), width: 0.16, align: 'right' },
      { text: `${line.taxRate}%`, width: 0.14, align: 'right' }, { text: money(line.net), width: 0.18, align: 'right' },
    ]);
  }
  page.rule();

  const total = (label: string, value: string, bold = false) => page.row([{ text: label, width: 0.7, align: 'right' }, { text: value, width: 0.3, align: 'right' }], { bold });
  total(country === 'US' ? 'Subtotal' : `Total excluding ${rule.taxName}`, money(invoice.subtotal));
  for (const s of invoice.taxSummary) total(`${taxComponentLabel(s)} on ${money(s.taxable)}`, money(s.amount));
  if (country !== 'US' || invoice.tax > 0) total(country === 'US' ? 'Sales tax' : `Total ${rule.taxName}`, money(invoice.tax));
  total(`Total (${invoice.currency})`, money(invoice.total), true);
  if (invoice.amountPaid > 0) total('Paid', money(invoice.amountPaid));
  if (invoice.status !== 'void') total('Balance due', money(invoice.balance), true);
  page.space();

  if (invoice.status !== 'void' && invoice.balance > 0) {
    page.text('How to pay', { bold: true });
    if (issuer.payOnlineUrl) page.text(`Pay online: ${issuer.payOnlineUrl}`);
    if (issuer.bankDetails) page.text(`Bank transfer: ${issuer.bankDetails}`);
    if (!issuer.payOnlineUrl && !issuer.bankDetails) page.text('Contact us for payment details.');
    if (invoice.number) page.text(`Please quote ${invoice.number} with your payment.`, { muted: true });
    page.space();
  }
  if (invoice.notes) page.text(invoice.notes, { muted: true });
  return page.save();
}
