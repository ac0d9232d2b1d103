import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Compact signed, expiring tokens for links and OAuth `state`: base64url(JSON) + '.' +
 * base64url(HMAC-SHA256). Not secret (anyone holding one can read it), only unforgeable;
 * use one key per purpose (deriveKey) so a token of one kind never passes as another.
 */
export class TokenSigner<P extends Record<string, unknown>> {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    this.#key = key;
  }

  sign(payload: P, ttlSeconds: number, now = Date.now()): { token: string; expiresAt: Date } {
    const expiresAt = new Date(now + ttlSeconds * 1000);
    const body = Buffer.from(JSON.stringify({ ...payload, exp: Math.floor(expiresAt.getTime() / 1000) })).toString('base64url');
    return { token: `${body}.${this.#mac(body)}`, expiresAt };
  }

  /** The payload of a genuine, unexpired token; null otherwise (which one is not said). */
  verify(token: string, now = Date.now()): P | null {
    const [body, mac] = token.split('.');
    if (!body || !mac || token.split('.').length !== 2) return null;
    const expected = Buffer.from(this.#mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as P & { exp?: unknown };
      if (typeof payload.exp !== 'number' || payload.exp * 1000 <= now) return null;
      return payload;
    } catch {
      return null;
    }
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update(body).digest('base64url');
  }
}
