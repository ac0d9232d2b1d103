import { describe, expect, it } from '@jest/globals';
import { clientDate, firmCountryFromZone } from '../src/client-date.ts';

describe('clientDate: a date as the firm\'s country writes it to its clients', () => {
  it.each([
    ['US', '2027-04-08', 'Apr 8, 2027'],
    ['CA', '2027-04-08', 'Apr 8, 2027'],
    ['GB', '2027-04-08', '8 Apr 2027'],
    ['IN', '2027-12-31', '31 Dec 2027'],
    ['AU', '2027-01-01', '1 Jan 2027'],
    [null, '2027-04-08', 'Apr 8, 2027'],
  ] as const)('%s writes %s as %s', (country, iso, text) => {
    expect(clientDate(iso, country)).toBe(text);
  });

  it('reads the date of an ISO instant, and leaves what is not a date alone', () => {
    expect(clientDate('2027-04-08T23:30:00.000Z', 'GB')).toBe('8 Apr 2027');
    expect(clientDate('soon', 'US')).toBe('soon');
    expect(clientDate('2027-13-01', 'US')).toBe('2027-13-01');
  });

  it('the firm\'s country from its zone, the US when the zone names none of the five', () => {
    expect(firmCountryFromZone('Asia/Kolkata')).toBe('IN');
    expect(firmCountryFromZone('Europe/London')).toBe('GB');
    expect(firmCountryFromZone('Australia/Sydney')).toBe('AU');
    expect(firmCountryFromZone('America/Toronto')).toBe('CA');
    expect(firmCountryFromZone('America/New_York')).toBe('US');
    expect(firmCountryFromZone('UTC')).toBe('US');
  });
});
