import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { knownTimeZone } from '@ledgerline/contracts/time-zone.ts';
import { addDays, calendarDateOf, dateIn, instantAt, isOverdue, startOfDay, todayIn } from '../src/firm-time-zone.ts';

describe('firm time zone arithmetic', () => {
  // One instant, 2026-12-15 03:00 UTC, is a different date on either side of the date line.
  it.each([
    ['UTC', '2026-12-15'],
    ['Asia/Kolkata', '2026-12-15'], // UTC+5:30 → 08:30
    ['America/Los_Angeles', '2026-12-14'], // UTC-8 → 19:00 the day before
    ['America/New_York', '2026-12-14'], // UTC-5 → 22:00 the day before
    ['Pacific/Kiritimati', '2026-12-15'], // UTC+14 → 17:00
    ['Pacific/Pago_Pago', '2026-12-14'], // UTC-11 → 16:00 the day before
  ])('today in %s at 2026-12-15T03:00Z is %s', (zone, date) => {
    expect(todayIn(zone, new Date('2026-12-15T03:00:00Z'))).toBe(date);
  });

  it.each([
    ['UTC', '2026-12-15', '09:00', '2026-12-15T09:00:00.000Z'],
    ['Asia/Kolkata', '2026-12-15', '09:00', '2026-12-15T03:30:00.000Z'],
    ['America/Los_Angeles', '2026-12-15', '09:00', '2026-12-15T17:00:00.000Z'],
    ['America/Los_Angeles', '2026-07-15', '09:00', '2026-07-15T16:00:00.000Z'], // PDT, UTC-7
    ['Pacific/Kiritimati', '2026-12-15', '00:00', '2026-12-14T10:00:00.000Z'],
    ['Pacific/Pago_Pago', '2026-12-15', '00:00', '2026-12-15T11:00:00.000Z'],
    // Spring forward in New York (8 Mar 2026): 02:30 does not exist, it is read as 03:30 EDT.
    ['America/New_York', '2026-03-08', '02:30', '2026-03-08T07:30:00.000Z'],
    ['America/New_York', '2026-03-08', '00:00', '2026-03-08T05:00:00.000Z'],
    ['America/New_York', '2026-03-09', '00:00', '2026-03-09T04:00:00.000Z'],
    // Fall back (1 Nov 2026): 01:30 happens twice, the earlier (EDT) one is taken.
    ['America/New_York', '2026-11-01', '01:30', '2026-11-01T05:30:00.000Z'],
    // London's clocks go forward at 01:00 on 29 Mar 2026.
    ['Europe/London', '2026-03-29', '01:30', '2026-03-29T01:30:00.000Z'],
    ['Europe/London', '2026-03-30', '09:00', '2026-03-30T08:00:00.000Z'],
    // Sydney's summer time ends on 5 Apr 2026 (UTC+11 → UTC+10).
    ['Australia/Sydney', '2026-04-04', '09:00', '2026-04-03T22:00:00.000Z'],
    ['Australia/Sydney', '2026-04-06', '09:00', '2026-04-05T23:00:00.000Z'],
  ])('%s %s %s is %s', (zone, date, time, iso) => {
    const at = instantAt(date, time, zone);
    expect(at.toISOString()).toBe(iso);
    expect(dateIn(at, zone)).toBe(date);
  });

  it('a day starts at the first instant whose date it is', () => {
    for (const zone of ['Asia/Kolkata', 'America/Los_Angeles', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'America/New_York']) {
      const start = startOfDay('2026-03-08', zone);
      expect(dateIn(start, zone)).toBe('2026-03-08');
      expect(dateIn(new Date(start.getTime() - 1000), zone)).toBe('2026-03-07');
    }
  });

  it('a due date is overdue only once the whole day has passed in the firm zone', () => {
    // 2026-12-16 03:00 UTC: already the 16th in Kolkata, still the 15th in Los Angeles.
    const now = new Date('2026-12-16T03:00:00Z');
    expect(isOverdue('2026-12-15', 'Asia/Kolkata', now)).toBe(true);
    expect(isOverdue('2026-12-15', 'America/Los_Angeles', now)).toBe(false);
    expect(isOverdue('2026-12-15', 'Pacific/Pago_Pago', now)).toBe(false);
    expect(isOverdue('2026-12-15', 'Pacific/Kiritimati', now)).toBe(true);
  });

  it('a date stays itself, an instant becomes its date in the firm zone', () => {
    expect(calendarDateOf('2026-12-15', 'Pacific/Pago_Pago')).toBe('2026-12-15');
    // New York's local midnight of 15 Dec, as the old task form sent it.
    expect(calendarDateOf('2026-12-15T05:00:00.000Z', 'America/New_York')).toBe('2026-12-15');
    expect(calendarDateOf('2026-12-15T05:00:00.000Z', 'America/Los_Angeles')).toBe('2026-12-14');
    expect(calendarDateOf('2026-12-15T00:00:00+05:30', 'Asia/Kolkata')).toBe('2026-12-15');
  });

  it('adds days across months, years and leap days', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it('reads the same dates and instants through Temporal (browsers) as through Intl (Node.js, Safari)', () => {
    const child = spawnSync(process.execPath, ['--harmony-temporal', join(import.meta.dirname, 'fixtures', 'zone-readers-compared.ts')], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    const { temporal, withTemporal, withIntl } = JSON.parse(child.stdout) as { temporal: boolean; withTemporal: string[]; withIntl: string[] };
    expect(temporal).toBe(true);
    expect(withTemporal.length).toBeGreaterThan(20_000);
    expect(new Set(withTemporal).size).toBeGreaterThan(600);
    const differing = withTemporal.flatMap((answer, i) => (answer === withIntl[i] ? [] : [`${i}: ${answer} vs ${withIntl[i]}`]));
    expect(differing).toEqual([]);
  });

  it('knows IANA names only', () => {
    expect(knownTimeZone('Asia/Kolkata')).toBe('Asia/Kolkata');
    expect(knownTimeZone('UTC')).toBe('UTC');
    expect(knownTimeZone('America/Argentina/Buenos_Aires')).toBe('America/Argentina/Buenos_Aires');
    for (const bad of ['IST', 'EST', '+05:30', 'Mars/Olympus', '', 'Asia/Kolkata; drop']) expect(knownTimeZone(bad)).toBeNull();
  });
});
