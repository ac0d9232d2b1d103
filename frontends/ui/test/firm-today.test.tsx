import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { todayIn } from '@ledgerline/contracts/firm-time-zone.ts';
import { toCalendarDate } from '@ledgerline/ui/calendar-date.ts';
import { firmDayOrLocal, firmInfoQuery, useFirmToday } from '@ledgerline/ui/firm-today.ts';

function Today({ tenant }: { tenant: string }) {
  return <output>{useFirmToday(tenant) ?? 'not yet'}</output>;
}

/** The hook as a screen runs it, with the firm's /info answer (or none) already in the cache. */
function render(info: { timeZone: string } | null): string {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  if (info) queryClient.setQueryData(['/api/acme/info'], info);
  return renderToStaticMarkup(
    <QueryClientProvider client={queryClient}>
      <Today tenant="acme" />
    </QueryClientProvider>,
  );
}

/*
 * The browser's own zone cannot be changed under jest (its process.env is a copy, so Node never
 * sees TZ change); the firm's day is worked out with the firm's zone named, whatever the browser's
 * is, and the compliance browser test runs the same screens in an emulated Los Angeles browser.
 */
describe('useFirmToday', () => {
  beforeEach(() => {
    // 22:30 on 10 March 2026 in Los Angeles (PDT, UTC-7): already 11:00 on the 11th in Kolkata.
    jest.useFakeTimers({ now: new Date('2026-03-11T05:30:00Z'), doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  it("is the firm's day, not the browser's: a firm in Asia/Kolkata seen from Los Angeles late in the evening", () => {
    expect(todayIn('America/Los_Angeles')).toBe('2026-03-10');
    expect(render({ timeZone: 'Asia/Kolkata' })).toBe('<output>2026-03-11</output>');
  });

  it('follows the firm west as well: a firm in America/Los_Angeles is still on the 10th', () => {
    expect(render({ timeZone: 'America/Los_Angeles' })).toBe('<output>2026-03-10</output>');
  });

  it("is not known before the firm's zone is read (a screen waits rather than asking with the browser's day)", () => {
    expect(render(null)).toBe('<output>not yet</output>');
  });

  it("asks for the firm's zone again after a failed answer, rather than falling back to the browser's day at once", async () => {
    jest.useRealTimers();
    let asked = 0;
    const queryFn = async () => {
      asked += 1;
      if (asked === 1) throw new Error('503 Service Unavailable');
      return { timeZone: 'Asia/Kolkata' };
    };
    await expect(new QueryClient().fetchQuery({ ...firmInfoQuery('acme'), queryFn })).resolves.toEqual({ timeZone: 'Asia/Kolkata' });
    expect([asked, firmInfoQuery('acme').queryKey]).toEqual([2, ['/api/acme/info']]);
  });

  it("bounds a date picker at the firm's day (local midnight of it), or at the browser's day while the zone is unread", () => {
    const firmDay = firmDayOrLocal('2026-03-11');
    expect([toCalendarDate(firmDay), firmDay.getHours(), firmDay.getMinutes()]).toEqual(['2026-03-11', 0, 0]);
    expect(toCalendarDate(firmDayOrLocal(undefined))).toBe(toCalendarDate(new Date()));
  });
});
