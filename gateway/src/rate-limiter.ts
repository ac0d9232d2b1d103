import type { ServerResponse } from 'node:http';
import { isIP } from 'node:net';
import { RateLimited } from '@ledgerline/kit/errors.ts';

const TOO_MANY_MESSAGE = 'Too many requests. Please wait a moment and try again.';

/**
 * API requests per client in fixed windows, announced in the IETF draft-8 `RateLimit`
 * and `RateLimit-Policy` headers. One map look-up per request: it sits on every API call.
 * An IPv6 client counts by its /56 (what one subscriber is usually given), so rotating
 * addresses inside it gains nothing.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { count: number; resetAtMs: number }>();
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #policy: string;
  readonly #name: string;
  readonly #sweeper: NodeJS.Timeout;

  constructor(limit: number, windowMs: number) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#name = `"${limit}-in-${Math.ceil(windowMs / 1000)}s"`;
    this.#policy = `${this.#name}; q=${limit}; w=${Math.ceil(windowMs / 1000)}`;
    this.#sweeper = setInterval(() => this.#sweep(), windowMs);
    this.#sweeper.unref();
  }

  /** Counts one request of `clientAddress`; throws RateLimited once its window is used up. */
  take(clientAddress: string, res: ServerResponse): void {
    const { remaining, resetSeconds } = this.#count(clientAddress);
    res.setHeader('RateLimit-Policy', this.#policy);
    res.setHeader('RateLimit', `${this.#name}; r=${Math.max(0, remaining)}; t=${resetSeconds}`);
    if (remaining < 0) throw new RateLimited(TOO_MANY_MESSAGE, resetSeconds);
  }

  /** The same count for a request with no response to annotate (a websocket upgrade): whether it may go on. */
  admits(clientAddress: string): boolean {
    return this.#count(clientAddress).remaining >= 0;
  }

  #count(clientAddress: string): { remaining: number; resetSeconds: number } {
    const key = rateLimitKey(clientAddress);
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || window.resetAtMs <= now) {
      window = { count: 0, resetAtMs: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    window.count++;
    return { remaining: this.#limit - window.count, resetSeconds: Math.ceil((window.resetAtMs - now) / 1000) };
  }

  stop(): void {
    clearInterval(this.#sweeper);
  }

  #sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.#windows) if (window.resetAtMs <= now) this.#windows.delete(key);
  }
}

function rateLimitKey(address: string): string {
  if (isIP(address) !== 6 || address.includes('.')) return address; // IPv4, or IPv4-mapped IPv6
  const [head = '', tail = ''] = address.split('::');
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const groups = [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups]
    .map((g) => parseInt(g, 16));
  return `${groups.slice(0, 3).map((g) => g.toString(16)).join(':')}:${(groups[3]! & 0xff00).toString(16)}::/56`;
}
