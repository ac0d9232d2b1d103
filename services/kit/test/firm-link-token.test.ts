import { describe, expect, it } from '@jest/globals';
import { firmOfLinkToken, newFirmLinkToken } from '../src/crypto/firm-link-token.ts';
import { hashToken } from '../src/crypto/hashed-token.ts';

describe('firm link tokens (requests, organizers and signatures share them)', () => {
  it('name their firm, carry 256 random bits, and are stored only as the hash of the whole token', () => {
    const a = newFirmLinkToken('acme2026');
    const b = newFirmLinkToken('acme2026');
    expect(a.token).toMatch(/^acme2026\.[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashToken(a.token));
    expect(firmOfLinkToken(a.token)).toBe('acme2026');
    // Another firm's prefix on the same secret is another token: its hash matches nothing stored.
    expect(hashToken(a.token.replace('acme2026', 'other'))).not.toBe(a.hash);
  });

  it('name no firm when the prefix is not a short name', () => {
    for (const token of ['', '.secret', 'nodot', 'ACME.secret', '../x.secret', 'acme-1.secret', 'a b.secret']) {
      expect(firmOfLinkToken(token)).toBeNull();
    }
  });
});
