import { describe, expect, it } from '@jest/globals';
import { CANADA_RATES, TAX_JURISDICTIONS, taxComponents, type TaxParties } from '@ledgerline/contracts/billing-tax.ts';
import { invoiceTotals, lineNet, taxOn, type InvoiceLineInput } from '@ledgerline/contracts/invoice-totals.ts';
import { formatMinorUnits, minorUnitDigits } from '@ledgerline/contracts/money.ts';

const line = (unitPrice: number, taxRate: number, quantity = 1): InvoiceLineInput =>
  ({ description: 'Work', serviceId: null, quantity, unitPrice, taxRate });

describe('money in minor units (contracts/money.ts)', () => {
  it.each([
    [150000, 'USD', '$1,500.00'], [5, 'GBP', '£0.05'], [450000000, 'INR', '₹45,00,000.00'], [1999, 'AUD', 'A$19.99'], [1000, 'CAD', 'CA$10.00'], [1500, 'JPY', '¥1,500'],
  ])('%d %s prints %s', (minor, currency, printed) => {
    expect(formatMinorUnits(minor, currency)).toBe(printed);
  });

  it('knows each currency\'s minor unit and refuses fractions of it', () => {
    expect(minorUnitDigits('USD')).toBe(2);
    expect(minorUnitDigits('JPY')).toBe(0);
    expect(() => formatMinorUnits(10.5, 'USD')).toThrow('whole minor units');
  });
});

describe('rounding: half up per line, then per tax component, totals are sums', () => {
  it('rounds a line\'s net half up (1.5 h × $33.33 = $49.995 → $50.00; 0.5 × 1¢ = 0.5¢ → 1¢)', () => {
    expect(lineNet(1.5, 3333)).toBe(5000);
    expect(lineNet(0.5, 1)).toBe(1);
    expect(lineNet(0.49, 1)).toBe(0);
  });

  it('rounds each line\'s tax half up (net 1.25 at 20 % = 0.25; net 0.03 at 18 %: 0.0054 → 0.01)', () => {
    expect(taxOn(125, 20)).toBe(25);
    expect(taxOn(3, 18)).toBe(1);
    expect(taxOn(2, 20)).toBe(0); // 0.4 of a unit rounds down
    expect(taxOn(10000, 9.975)).toBe(998); // 997.5 → 998
  });

  it('sums rounded lines, so three lines of 0.5 units of tax give 3, not the 2 of rounding the sum', () => {
    // net 5 at 10 % = 0.5 each line; half up per line: 1 + 1 + 1.
    const t = invoiceTotals([line(5, 10), line(5, 10), line(5, 10)], { country: 'AU', firmState: null, clientState: null });
    expect(t).toMatchObject({ subtotal: 15, tax: 3, total: 18 });
    expect(t.lines.map((l) => l.tax)).toEqual([1, 1, 1]);
  });

  it('refuses quantities with more than 2 decimals, rates with more than 3, fractional or negative prices', () => {
    const parties: TaxParties = { country: 'US', firmState: null, clientState: null };
    expect(() => invoiceTotals([line(100, 0, 1.005)], parties)).toThrow('Quantity must have at most 2 decimals');
    expect(() => invoiceTotals([line(100, 1.0001)], parties)).toThrow('Tax rate must have at most 3 decimals');
    expect(() => invoiceTotals([line(10.5, 0)], parties)).toThrow('Unit price');
    expect(() => invoiceTotals([line(-1, 0)], parties)).toThrow('Unit price');
  });

  it('refuses amounts a number cannot hold exactly, rather than rounding them', () => {
    const parties: TaxParties = { country: 'US', firmState: null, clientState: null };
    expect(() => invoiceTotals([line(10_000_000_000_000, 0, 1000)], parties)).toThrow('too large'); // 10^16 > 2^53
    expect(() => invoiceTotals(Array.from({ length: 200 }, () => line(50_000_000_000_000, 0)), parties)).toThrow('too large');
  });

  it('keeps exact integers far beyond floating point\'s exact range (BigInt arithmetic)', () => {
    // 99,999,999 (quantity × 100) × 900,719,925 is about 9 × 10^16, past 2^53: as doubles the product loses units.
    // Exactly: 900,719,925,000,000 − 9,007,199.25 = 900,719,915,992,800.75 → half up.
    expect(lineNet(999999.99, 900719925)).toBe(900719915992801);
  });
});

describe('jurisdictions (each row names its source)', () => {
  it('US — no sales tax on accounting services by default (no federal sales tax; Texas Tax Code §151.0101 does not list accounting); a set rate applies', () => {
    expect(TAX_JURISDICTIONS.US.standardRatePercent(null, null)).toBe(0);
    const parties: TaxParties = { country: 'US', firmState: 'US-NY', clientState: 'US-NY' };
    expect(invoiceTotals([line(150000, 0)], parties)).toMatchObject({ subtotal: 150000, tax: 0, total: 150000, taxSummary: [] });
    const taxed = invoiceTotals([line(150000, 8.875)], parties);
    expect(taxed).toMatchObject({ subtotal: 150000, tax: 13313, total: 163313 }); // 13312.5 → 13313
    expect(taxed.taxSummary).toEqual([{ code: 'TAX', ratePercent: 8.875, taxable: 150000, amount: 13313 }]);
  });

  it('UK — VAT 20 % standard, a rate per line and a VAT total (HMRC VAT Notice 700/21 §16.3)', () => {
    const rule = TAX_JURISDICTIONS.GB;
    expect(rule.source.title).toContain('700/21');
    expect(rule.documentTitle).toBe('VAT invoice');
    expect(rule.registration?.taxIdType).toBe('vat');
    expect(rule.standardRatePercent(null, null)).toBe(20);
    expect(rule.requiredFields).toEqual(expect.arrayContaining(['firmRegistration', 'lineRate', 'lineUnitPrice', 'supplyDate', 'taxByComponent']));
    const t = invoiceTotals([line(45000, 20), line(12345, 0, 2)], { country: 'GB', firmState: null, clientState: null });
    expect(t).toMatchObject({ subtotal: 69690, tax: 9000, total: 78690 });
    expect(t.taxSummary).toEqual([{ code: 'VAT', ratePercent: 20, taxable: 45000, amount: 9000 }]);
  });

  it('Australia — GST 10 %, the words "Tax invoice" and the seller\'s ABN (ATO Tax invoices; GST Act s 29-70)', () => {
    const rule = TAX_JURISDICTIONS.AU;
    expect(rule.source.url).toContain('ato.gov.au');
    expect(rule.documentTitle).toBe('Tax invoice');
    expect(rule.registration).toEqual({ label: 'ABN', taxIdType: 'abn' });
    expect(invoiceTotals([line(99999, 10)], { country: 'AU', firmState: 'AU-NSW', clientState: 'AU-VIC' })).toMatchObject({ subtotal: 99999, tax: 10000, total: 109999 });
  });

  describe('India — GST 18 % on heading 9982, CGST + SGST within a State, IGST across (CGST Rules 2017 r 46; IGST Act s 12(2))', () => {
    const sac = { ...line(1000000, 18), sacCode: '998222' };

    it.each([
      ['same State (Delhi → Delhi): CGST 9 % + SGST 9 %', 'IN-DL', 'IN-DL', [['CGST', 9, 90000], ['SGST', 9, 90000]]],
      ['across States (Maharashtra → Karnataka): IGST 18 %', 'IN-MH', 'IN-KA', [['IGST', 18, 180000]]],
      ['same Union Territory without legislature (Chandigarh): CGST + UTGST (UTGST Act s 7)', 'IN-CH', 'IN-CH', [['CGST', 9, 90000], ['UTGST', 9, 90000]]],
      ['client without a State: supplied in the firm\'s State', 'IN-TN', null, [['CGST', 9, 90000], ['SGST', 9, 90000]]],
    ] as const)('%s', (_name, firmState, clientState, expected) => {
      const t = invoiceTotals([sac], { country: 'IN', firmState, clientState });
      expect(t.lines[0]!.components.map((c) => [c.code, c.ratePercent, c.amount])).toEqual(expected);
      expect(t).toMatchObject({ subtotal: 1000000, tax: 180000, total: 1180000 });
    });

    it('rounds each half on its own (net ₹0.05 at 18 %: CGST 0.45 → 0, SGST → 0; IGST 0.9 → 1)', () => {
      expect(invoiceTotals([line(5, 18)], { country: 'IN', firmState: 'IN-DL', clientState: 'IN-DL' }).tax).toBe(0);
      expect(invoiceTotals([line(5, 18)], { country: 'IN', firmState: 'IN-DL', clientState: 'IN-HR' }).tax).toBe(1);
    });

    it('requires GSTIN, SAC and place of supply on the invoice', () => {
      expect(TAX_JURISDICTIONS.IN.requiredFields).toEqual(expect.arrayContaining(['firmRegistration', 'lineSac', 'placeOfSupply', 'clientRegistration']));
      expect(TAX_JURISDICTIONS.IN.registration?.taxIdType).toBe('gstin');
      expect(TAX_JURISDICTIONS.IN.standardRatePercent(null, null)).toBe(18);
    });
  });

  describe('Canada — GST or HST by the client\'s province (CRA, GST/HST rates; NS 14 % from 1 April 2025)', () => {
    it.each([
      ['CA-ON', 'HST', 13, 13000], ['CA-NS', 'HST', 14, 14000], ['CA-NB', 'HST', 15, 15000], ['CA-NL', 'HST', 15, 15000], ['CA-PE', 'HST', 15, 15000],
      ['CA-AB', 'GST', 5, 5000], ['CA-BC', 'GST', 5, 5000], ['CA-QC', 'GST', 5, 5000], ['CA-YT', 'GST', 5, 5000],
    ] as const)('a client in %s pays %s %d %%', (clientState, code, rate, tax) => {
      expect(TAX_JURISDICTIONS.CA.standardRatePercent(clientState, 'CA-AB')).toBe(rate);
      const parties: TaxParties = { country: 'CA', firmState: 'CA-AB', clientState };
      const t = invoiceTotals([line(100000, TAX_JURISDICTIONS.CA.standardRatePercent(clientState, 'CA-AB'))], parties);
      expect(t.taxSummary).toEqual([{ code, ratePercent: rate, taxable: 100000, amount: tax }]);
    });

    it('knows every province and territory, and a client without one is taxed as in the firm\'s', () => {
      expect(Object.keys(CANADA_RATES)).toHaveLength(13);
      expect(TAX_JURISDICTIONS.CA.standardRatePercent(null, 'CA-ON')).toBe(13);
      expect(taxComponents(13, { country: 'CA', firmState: 'CA-ON', clientState: null })).toEqual([{ code: 'HST', ratePercent: 13 }]);
    });
  });
});
