import { describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { RateLimited } from '@ledgerline/kit/errors.ts';
import { RateLimiter } from '../src/rate-limiter.ts';

/** A response that only records its headers. */
const response = () => {
  const headers = new Map<string, string>();
  const res = { setHeader: (name: string, value: string) => { headers.set(name.toLowerCase(), value); } } as unknown as http.ServerResponse;
  return { res, headers };
};

describe('gateway rate limiter', () => {
  it('counts per client in a fixed window and announces the draft-8 RateLimit headers', () => {
    const limiter = new RateLimiter(2, 60_000);
    try {
      const first = response();
      limiter.take('203.0.113.1', first.res);
      expect(first.headers.get('ratelimit-policy')).toBe('"2-in-60s"; q=2; w=60');
      expect(first.headers.get('ratelimit')).toMatch(/^"2-in-60s"; r=1; t=(59|60)$/);
      limiter.take('203.0.113.1', response().res);
      expect(() => limiter.take('203.0.113.1', response().res)).toThrow(RateLimited);
      // Another address has its own window.
      expect(() => limiter.take('203.0.113.2', response().res)).not.toThrow();
    } finally {
      limiter.stop();
    }
  });

  it('counts an IPv6 client by its /56, so rotating addresses inside it gains nothing', () => {
    const limiter = new RateLimiter(2, 60_000);
    try {
      limiter.take('2001:db8:0:ab01::1', response().res);
      limiter.take('2001:db8:0:abff:1234::9', response().res);
      expect(() => limiter.take('2001:db8:0:ab42::7', response().res)).toThrow(RateLimited);
      // The next /56 is another subscriber.
      expect(() => limiter.take('2001:db8:0:ac00::1', response().res)).not.toThrow();
      // IPv4-mapped addresses count like the IPv4 address they carry.
      limiter.take('::ffff:198.51.100.7', response().res);
      limiter.take('::ffff:198.51.100.7', response().res);
      expect(() => limiter.take('::ffff:198.51.100.7', response().res)).toThrow(RateLimited);
      expect(() => limiter.take('::ffff:198.51.100.8', response().res)).not.toThrow();
    } finally {
      limiter.stop();
    }
  });
});
