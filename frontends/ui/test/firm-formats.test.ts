import { afterEach, describe, expect, it } from '@jest/globals';
import { FIRM_COUNTRIES, FIRM_COUNTRY_FACTS } from '@ledgerline/contracts/firm-country.ts';
import { formatCount } from '@ledgerline/ui/count-format.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { setFirmFormats } from '@ledgerline/ui/firm-formats.ts';

describe("a firm's dates and numbers follow its country", () => {
  afterEach(() => setFirmFormats(null));

  it.each([
    ['US', '03/07/2025', '1,234,567'],
    ['IN', '07/03/2025', '12,34,567'],
    ['GB', '07/03/2025', '1,234,567'],
    ['AU', '07/03/2025', '1,234,567'],
    ['CA', '2025-03-07', '1,234,567'],
    [null, '03/07/2025', '1,234,567'],
  ] as const)('%s: %s, %s', (country, date, count) => {
    setFirmFormats(country);
    expect(formatDate('2025-03-07')).toBe(date);
    expect(formatCount(1_234_567)).toBe(count);
  });

  it("writes what Intl writes in each country's locale", () => {
    for (const country of FIRM_COUNTRIES) {
      setFirmFormats(country);
      const { locale } = FIRM_COUNTRY_FACTS[country];
      const day = new Date(2025, 2, 7);
      expect(formatDate(day)).toBe(day.toLocaleDateString(locale, { year: 'numeric', month: '2-digit', day: '2-digit' }).replace(/\./g, '/'));
      for (const n of [0, 999, 1000, 100_000, 12_345_678, -45_000]) expect(formatCount(n)).toBe(n.toLocaleString(locale));
    }
  });
});
