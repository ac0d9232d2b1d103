import type { FirmCountry } from './firm-country.ts';
import type { TaxIdType } from './tax-ids.ts';

/*
 * Tax on a firm's invoices, as data (issue 43): per firm country, what the tax is called,
 * the standard rate on professional services, how a line's rate splits into the components
 * the invoice must show, which registration number the firm prints, and what the document
 * must carry. Each rule names the official source it follows; the table tests
 * (services/billing/test/invoice-totals.test.ts) name them again beside their cases.
 *
 * The place of supply of a professional service to a business is the client's location
 * (India: IGST Act s 12(2); Canada: the recipient's address, Excise Tax Act Sch IX Part II),
 * so the client's `state` picks the Indian split and the Canadian rate; a client without one
 * is treated as in the firm's own state.
 */

/** A component of a line's tax, as printed: 'CGST 9%'. */
export type TaxComponentCode = 'TAX' | 'VAT' | 'GST' | 'HST' | 'CGST' | 'SGST' | 'UTGST' | 'IGST';
export interface TaxComponent { code: TaxComponentCode; ratePercent: number }

/** A field the jurisdiction requires on the invoice (checked on the PDF per jurisdiction). */
export type InvoiceField =
  | 'title' | 'number' | 'issueDate' | 'supplyDate' | 'dueDate' | 'firmName' | 'firmAddress' | 'firmRegistration' | 'clientName'
  | 'clientAddress' | 'clientRegistration' | 'lineDescription' | 'lineQuantity' | 'lineUnitPrice' | 'lineRate' | 'lineSac'
  | 'subtotal' | 'taxByComponent' | 'total' | 'placeOfSupply';

export interface TaxJurisdictionRule {
  country: FirmCountry;
  /** What the tax is called in totals ('VAT', 'GST'). */
  taxName: string;
  /** The document's title; Australia requires the words "Tax invoice". */
  documentTitle: string;
  /** The firm's registration printed on the invoice, its label, and its tax-id type (validation). */
  registration: { label: string; taxIdType: TaxIdType } | null;
  /** The rate a taxable line gets unless staff set another, for a client in `clientState`. */
  standardRatePercent: (clientState: string | null, firmState: string | null) => number;
  /** Fields the invoice must carry (beyond the portal's own). */
  requiredFields: readonly InvoiceField[];
  source: { title: string; url: string };
}

/**
 * GST/HST by province (CRA, "GST/HST rates", from 1 April 2025: Nova Scotia's HST is 14 %).
 * Quebec's QST and the western provinces' PST are separate provincial taxes the portal does
 * not compute (docs/using/billing.md).
 */
export const CANADA_RATES: Readonly<Record<string, { code: 'GST' | 'HST'; ratePercent: number }>> = {
  'CA-AB': { code: 'GST', ratePercent: 5 }, 'CA-BC': { code: 'GST', ratePercent: 5 }, 'CA-MB': { code: 'GST', ratePercent: 5 },
  'CA-NB': { code: 'HST', ratePercent: 15 }, 'CA-NL': { code: 'HST', ratePercent: 15 }, 'CA-NS': { code: 'HST', ratePercent: 14 },
  'CA-NT': { code: 'GST', ratePercent: 5 }, 'CA-NU': { code: 'GST', ratePercent: 5 }, 'CA-ON': { code: 'HST', ratePercent: 13 },
  'CA-PE': { code: 'HST', ratePercent: 15 }, 'CA-QC': { code: 'GST', ratePercent: 5 }, 'CA-SK': { code: 'GST', ratePercent: 5 },
  'CA-YT': { code: 'GST', ratePercent: 5 },
};

/**
 * Indian Union Territories without a legislature levy UTGST in place of SGST (UTGST Act 2017 s 7):
 * Andaman and Nicobar, Chandigarh, Dadra and Nagar Haveli and Daman and Diu, Ladakh, Lakshadweep.
 */
export const INDIA_UTGST_STATES: readonly string[] = ['IN-AN', 'IN-CH', 'IN-DH', 'IN-LA', 'IN-LD'];

/** SAC codes of heading 9982 a firm's services usually carry (CBIC, Scheme of Classification of Services). */
export const INDIA_SAC_CODES: Readonly<Record<string, string>> = {
  998221: 'Financial auditing services',
  998222: 'Accounting and bookkeeping services',
  998223: 'Payroll services',
  998224: 'Other similar services n.e.c.',
  998231: 'Corporate tax consulting and preparation services',
  998232: 'Individual tax preparation and planning services',
};

const canadaRate = (clientState: string | null, firmState: string | null) => CANADA_RATES[clientState ?? firmState ?? '']?.ratePercent ?? 5;

export const TAX_JURISDICTIONS: Readonly<Record<FirmCountry, TaxJurisdictionRule>> = {
  US: {
    country: 'US', taxName: 'Sales tax', documentTitle: 'Invoice', registration: null,
    // Most states do not tax accounting services; a firm in one that does sets its rate (firm settings).
    standardRatePercent: () => 0,
    requiredFields: ['title', 'number', 'issueDate', 'dueDate', 'firmName', 'clientName', 'lineDescription', 'subtotal', 'total'],
    source: { title: 'No federal sales tax; state rules (e.g. Texas Tax Code §151.0101 lists taxable services, accounting is not one)', url: 'https://statutes.capitol.texas.gov/Docs/TX/htm/TX.151.htm' },
  },
  GB: {
    country: 'GB', taxName: 'VAT', documentTitle: 'VAT invoice', registration: { label: 'VAT registration number', taxIdType: 'vat' },
    standardRatePercent: () => 20,
    requiredFields: ['title', 'number', 'issueDate', 'supplyDate', 'firmName', 'firmAddress', 'firmRegistration', 'clientName', 'clientAddress',
      'lineDescription', 'lineQuantity', 'lineUnitPrice', 'lineRate', 'subtotal', 'taxByComponent', 'total'],
    source: { title: 'HMRC VAT Notice 700/21 §16.3 (what a full VAT invoice must show); VAT standard rate 20 %', url: 'https://www.gov.uk/guidance/record-keeping-for-vat-notice-70021' },
  },
  AU: {
    country: 'AU', taxName: 'GST', documentTitle: 'Tax invoice', registration: { label: 'ABN', taxIdType: 'abn' },
    standardRatePercent: () => 10,
    requiredFields: ['title', 'number', 'issueDate', 'firmName', 'firmRegistration', 'clientName', 'lineDescription', 'lineQuantity', 'lineRate',
      'subtotal', 'taxByComponent', 'total'],
    source: { title: 'ATO, Tax invoices (GST Act 1999 s 29-70; GSTR 2013/1): the words "Tax invoice", seller\'s ABN, GST payable; GST 10 %', url: 'https://www.ato.gov.au/businesses-and-organisations/gst-excise-and-indirect-taxes/gst/tax-invoices' },
  },
  IN: {
    country: 'IN', taxName: 'GST', documentTitle: 'Tax Invoice', registration: { label: 'GSTIN', taxIdType: 'gstin' },
    // Accounting, auditing, bookkeeping and tax services (heading 9982): 18 % (Notification 11/2017-Central Tax (Rate)).
    standardRatePercent: () => 18,
    requiredFields: ['title', 'number', 'issueDate', 'firmName', 'firmAddress', 'firmRegistration', 'clientName', 'clientAddress', 'clientRegistration',
      'lineDescription', 'lineSac', 'lineQuantity', 'lineRate', 'subtotal', 'taxByComponent', 'total', 'placeOfSupply'],
    source: { title: 'CGST Rules 2017, Rule 46 (tax invoice); IGST Act 2017 s 12(2) (place of supply)', url: 'https://cbic-gst.gov.in/gst-acts.html' },
  },
  CA: {
    country: 'CA', taxName: 'GST/HST', documentTitle: 'Invoice', registration: { label: 'GST/HST registration number', taxIdType: 'bn' },
    standardRatePercent: canadaRate,
    requiredFields: ['title', 'number', 'issueDate', 'firmName', 'firmRegistration', 'clientName', 'lineDescription', 'lineRate', 'subtotal',
      'taxByComponent', 'total'],
    source: { title: 'CRA, GST/HST rates by province; Input Tax Credit Information (GST/HST) Regulations s 3 (registration number on invoices)', url: 'https://www.canada.ca/en/revenue-agency/services/tax/businesses/topics/gst-hst-businesses/charge-collect-which-rate/calculator.html' },
  },
};

/** Where the firm and the client are, as the tax split needs them. */
export interface TaxParties { country: FirmCountry; firmState: string | null; clientState: string | null }

/**
 * The components a line at `ratePercent` is shown and rounded as: India splits it into CGST and
 * SGST (or UTGST) halves within one State or Union Territory and charges IGST across them;
 * Canada calls it HST in the participating provinces, GST elsewhere; the others name one tax.
 */
export function taxComponents(ratePercent: number, parties: TaxParties): TaxComponent[] {
  if (ratePercent === 0) return [];
  const { country, firmState, clientState } = parties;
  const placeOfSupply = clientState ?? firmState;
  switch (country) {
    case 'IN':
      if (placeOfSupply !== null && placeOfSupply === firmState) {
        const half = ratePercent / 2;
        return [{ code: 'CGST', ratePercent: half }, { code: INDIA_UTGST_STATES.includes(placeOfSupply) ? 'UTGST' : 'SGST', ratePercent: half }];
      }
      return [{ code: 'IGST', ratePercent }];
    case 'CA':
      return [{ code: CANADA_RATES[placeOfSupply ?? '']?.code ?? 'GST', ratePercent }];
    case 'GB':
      return [{ code: 'VAT', ratePercent }];
    case 'AU':
      return [{ code: 'GST', ratePercent }];
    case 'US':
      return [{ code: 'TAX', ratePercent }];
  }
}

/** How a component is labelled on an invoice: 'CGST 9%', 'Sales tax 8.875%'. */
export const taxComponentLabel = (c: TaxComponent): string => `${c.code === 'TAX' ? 'Sales tax' : c.code} ${c.ratePercent}%`;
