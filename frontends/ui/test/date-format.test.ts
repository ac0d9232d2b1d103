import { describe, expect, it } from '@jest/globals';
import { formatDate } from '@ledgerline/ui/date-format.ts';

describe('formatDate', () => {
  it('formats MM/DD/YYYY in en-US', () => {
    expect(formatDate(new Date(2024, 0, 5, 15, 4))).toBe('01/05/2024');
    expect(formatDate(new Date(2024, 11, 31).getTime())).toBe('12/31/2024');
  });

  it('reads a bare calendar date as that local day', () => {
    expect(formatDate('2024-03-01')).toBe('03/01/2024');
  });

  it('adds 12-hour time when asked', () => {
    expect(formatDate(new Date(2024, 0, 5, 15, 4), { withTime: true })).toBe('01/05/2024 3:04 PM');
    expect(formatDate(new Date(2024, 0, 5, 0, 30), { withTime: true })).toBe('01/05/2024 12:30 AM');
    expect(formatDate(new Date(2024, 0, 5, 12, 0), { withTime: true })).toBe('01/05/2024 12:00 PM');
    expect(formatDate(new Date(2024, 0, 5, 11, 59), { withTime: true })).toBe('01/05/2024 11:59 AM');
    expect(formatDate(null, { withTime: true })).toBe('N/A');
  });

  it('writes what en-US writes, hour by hour through a day', () => {
    for (let hour = 0; hour < 24; hour += 1) {
      const date = new Date(2025, 2, 7, hour, 5);
      const intl = `${date.toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' })} ${date.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', hour12: true })}`;
      expect(formatDate(date, { withTime: true })).toBe(intl.replace(/\s/gu, ' '));
    }
  });

  it('shows N/A for an empty value', () => {
    expect(formatDate(null)).toBe('N/A');
    expect(formatDate(undefined)).toBe('N/A');
    expect(formatDate('')).toBe('N/A');
  });

  it('shows Invalid Date for a value that is not a date', () => {
    expect(formatDate('not a date')).toBe('Invalid Date');
    expect(formatDate('2024-13-45T99:00')).toBe('Invalid Date');
    expect(formatDate(Number.NaN, { withTime: true })).toBe('Invalid Date');
  });

  it('writes a client-facing date as the firm\'s country does, the time still 12-hour', () => {
    expect(formatDate('2027-04-08', { country: 'US' })).toBe('Apr 8, 2027');
    expect(formatDate('2027-04-08', { country: 'GB' })).toBe('8 Apr 2027');
    expect(formatDate('2027-04-08', { country: 'IN' })).toBe('8 Apr 2027');
    expect(formatDate(new Date(2027, 3, 8, 14, 5), { country: 'AU', withTime: true })).toBe('8 Apr 2027 2:05 PM');
  });
});
