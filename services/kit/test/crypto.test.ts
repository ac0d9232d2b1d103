import { describe, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hashToken, newHashedToken, tokenMatches } from '../src/crypto/hashed-token.ts';
import { deriveKey, loadMasterKey } from '../src/crypto/master-key.ts';
import { SecretBox } from '../src/crypto/secret-box.ts';
import { TokenSigner } from '../src/crypto/signed-token.ts';

describe('master key', () => {
  it('is generated once in the data folder and read back after', () => {
    const dir = mkdtempSync(join(tmpdir(), 'keys-'));
    const first = loadMasterKey(undefined, dir);
    expect(first).toHaveLength(32);
    expect(loadMasterKey(undefined, dir).equals(first)).toBe(true);
  });

  it('takes a configured key in base64 or hex and refuses a wrong length', () => {
    const hex = 'ab'.repeat(32);
    expect(loadMasterKey(hex, '/nonexistent').toString('hex')).toBe(hex);
    expect(loadMasterKey(Buffer.from(hex, 'hex').toString('base64'), '/nonexistent').toString('hex')).toBe(hex);
    expect(() => loadMasterKey('c2hvcnQ=', '/nonexistent')).toThrow('PORTAL_ENCRYPTION_KEY must be 32 bytes');
  });

  it('derives a different key per purpose', () => {
    const master = Buffer.alloc(32, 1);
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'b'))).toBe(false);
    expect(deriveKey(master, 'a').equals(deriveKey(master, 'a'))).toBe(true);
  });
});

describe('secret box', () => {
  const box = new SecretBox(Buffer.alloc(32, 7));

  it('round-trips and never stores the plaintext', () => {
    const sealed = box.seal('refresh-token-value', 'acme/client/1');
    expect(sealed).not.toContain('refresh-token-value');
    expect(box.seal('refresh-token-value', 'acme/client/1')).not.toBe(sealed);
    expect(box.open(sealed, 'acme/client/1')).toBe('refresh-token-value');
  });

  it('refuses another context, another key and a tampered value', () => {
    const sealed = box.seal('secret', 'acme/client/1');
    expect(() => box.open(sealed, 'acme/client/2')).toThrow();
    expect(() => new SecretBox(Buffer.alloc(32, 8)).open(sealed, 'acme/client/1')).toThrow();
    const parts = sealed.split('.');
    parts[3] = Buffer.from('other').toString('base64url');
    expect(() => box.open(parts.join('.'), 'acme/client/1')).toThrow();
  });
});

describe('token signer', () => {
  const signer = new TokenSigner<{ t: string; c: number }>(Buffer.alloc(32, 3));

  it('verifies its own unexpired tokens only', () => {
    const now = Date.now();
    const { token, expiresAt } = signer.sign({ t: 'acme', c: 4 }, 60, now);
    expect(expiresAt.getTime()).toBe(now + 60_000);
    expect(signer.verify(token, now)).toMatchObject({ t: 'acme', c: 4 });
    expect(signer.verify(token, now + 61_000)).toBeNull();
    expect(new TokenSigner(Buffer.alloc(32, 4)).verify(token, now)).toBeNull();
    const [body, mac] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ t: 'beta', c: 4, exp: 9_999_999_999 })).toString('base64url');
    expect(signer.verify(`${forged}.${mac}`, now)).toBeNull();
    expect(signer.verify(`${body}.${mac}x`, now)).toBeNull();
    expect(signer.verify('garbage', now)).toBeNull();
  });
});

describe('hashed token', () => {
  it('hands out a random URL-safe token and keeps only its hash', () => {
    const a = newHashedToken();
    const b = newHashedToken();
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    expect(a.hash).toBe(hashToken(a.token));
    expect(a.hash).not.toContain(a.token);
    expect(tokenMatches(a.token, a.hash)).toBe(true);
    expect(tokenMatches(b.token, a.hash)).toBe(false);
    expect(tokenMatches(a.token, 'abcd')).toBe(false);
  });

  it('refuses fewer than 128 random bits', () => {
    expect(() => newHashedToken(8)).toThrow('at least 16 random bytes');
  });
});
