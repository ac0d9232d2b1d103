import { describe, expect, it } from '@jest/globals';
import { addDays, instantAt } from '@ledgerline/contracts/firm-time-zone.ts';
import { REQUEST_MESSAGES } from '@ledgerline/contracts/requests.contracts.ts';
import { RequestLinkMaker } from '../src/requests/request-links.ts';
import { RequestStore } from '../src/requests/request.store.ts';

/* How long an upload link lives (issue 40): by the request's due date, not a fixed 14 days. */

const ZONE = 'America/New_York';
const firm = { shortName: 'acme', name: 'Acme', timeZone: ZONE, country: 'US' as const };
const maker = new RequestLinkMaker({ store: new RequestStore('unused'), publicBaseUrl: 'https://portal.example.com' });
const now = Date.parse('2027-01-10T15:00:00Z');

describe('upload link lifetime', () => {
  it('without expiresInDays: until the end of the 14th day after the due date, in the firm\'s zone', () => {
    expect(maker.expiry(firm, '2027-04-15', null, now)).toEqual(instantAt('2027-04-30', '00:00', ZONE));
  });

  it('a request already overdue still gets 14 days from today', () => {
    expect(maker.expiry(firm, '2026-12-01', undefined, now)).toEqual(instantAt(addDays('2027-01-10', 15), '00:00', ZONE));
  });

  it('a chosen expiresInDays counts from now, up to 90 days past the due date and no further', () => {
    expect(maker.expiry(firm, '2027-01-20', 100, now)).toEqual(new Date(now + 100 * 86_400_000));
    expect(() => maker.expiry(firm, '2027-01-20', 101, now)).toThrow(REQUEST_MESSAGES.linkTooLong);
  });
});
