import { RateLimited } from '../errors.ts';

const WINDOW_MS = 60_000;

/**
 * Fixed one-minute windows per key (an address, a token); the oldest window is dropped as it
 * ends. For public calls by link (document requests, signing): one replica's count each.
 */
export class AttemptCounter {
  readonly #limit: number;
  readonly #message: string;
  #window = 0;
  #counts = new Map<string, number>();

  constructor(limitPerMinute: number, message: string) {
    this.#limit = limitPerMinute;
    this.#message = message;
  }

  take(...keys: string[]): void {
    const now = Date.now();
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.#window) { this.#window = window; this.#counts = new Map(); }
    const over = keys.some((k) => (this.#counts.get(k) ?? 0) >= this.#limit);
    for (const k of keys) this.#counts.set(k, (this.#counts.get(k) ?? 0) + 1);
    if (over) throw new RateLimited(this.#message, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
  }
}
