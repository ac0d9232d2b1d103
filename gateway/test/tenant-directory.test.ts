import { describe, expect, it } from '@jest/globals';
import { TenantDirectory, type TenantRoute } from '../src/tenant-directory.ts';

const route = (over: Partial<TenantRoute>): TenantRoute => ({ shortName: 'acme', isActive: true, urlPattern: 'path', customDomain: null, customSubdomain: null, ...over });

describe('TenantDirectory', () => {
  it('resolves subdomain and domain URL patterns from the Host header', () => {
    const d = new TenantDirectory();
    d.replaceAll([
      route({ shortName: 'acme', urlPattern: 'subdomain', customSubdomain: 'acme' }),
      route({ shortName: 'beta', urlPattern: 'domain', customDomain: 'portal.beta-tax.com' }),
      route({ shortName: 'gamma' }),
    ]);
    expect(d.resolveHost('acme.example.com:8080')).toBe('acme');
    expect(d.resolveHost('PORTAL.BETA-TAX.COM')).toBe('beta');
    expect(d.resolveHost('gamma.example.com')).toBeNull();
    expect(d.resolveHost(undefined)).toBeNull();
  });

  it('knows inactive and removed tenants as unavailable, and unknown ones as not yet known', () => {
    const d = new TenantDirectory();
    d.replaceAll([route({ shortName: 'acme' }), route({ shortName: 'sleepy', isActive: false })]);
    expect(d.isUnavailable('acme')).toBe(false);
    expect(d.isUnavailable('sleepy')).toBe(true);
    expect(d.isUnavailable('never-seen')).toBe(false);
    d.replaceAll([route({ shortName: 'sleepy', isActive: true })]);
    expect(d.isUnavailable('acme')).toBe(true);
    expect(d.isUnavailable('sleepy')).toBe(false);
  });

  it('keeps the last good snapshot when a poll fails', async () => {
    const d = new TenantDirectory();
    const errors: unknown[] = [];
    let fail = false;
    const poller = d.poll(async () => {
      if (fail) throw new Error('identity down');
      return [route({ shortName: 'acme', urlPattern: 'domain', customDomain: 'acme.test' })];
    }, 60_000, (e) => errors.push(e));
    await poller.refresh();
    fail = true;
    await poller.refresh();
    poller.stop();
    expect(d.resolveHost('acme.test')).toBe('acme');
    expect(errors.length).toBeGreaterThan(0);
  });
});

describe('TenantDirectory.isUnavailableNow', () => {
  it('takes a fresh look before refusing a firm the snapshot calls gone, sharing one look between concurrent asks', async () => {
    const d = new TenantDirectory();
    let routes = [route({ shortName: 'acme', isActive: false })];
    let polls = 0;
    const poller = d.poll(async () => { polls++; return routes; }, 60_000, () => undefined);
    await poller.refresh();
    routes = [route({ shortName: 'acme', isActive: true })];
    expect(await d.isUnavailableNow('acme')).toBe(false);
    routes = [route({ shortName: 'acme', isActive: false })];
    await poller.refresh();
    const before = polls;
    expect(await Promise.all([d.isUnavailableNow('acme'), d.isUnavailableNow('acme')])).toEqual([true, true]);
    expect(polls).toBe(before + 1);
    expect(await d.isUnavailableNow('other')).toBe(false);
    expect(polls).toBe(before + 1);
    poller.stop();
  });
});
