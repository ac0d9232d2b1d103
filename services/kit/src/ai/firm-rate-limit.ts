import { RateLimited } from '../errors.ts';
import { AI_MESSAGES } from './ai-assistant.ts';

const WINDOW_MS = 60_000;

/**
 * At most `perMinute` questions per firm in any sliding minute, in this process: one firm
 * cannot spend the whole provider quota (or the CPU of the embedded engine) of the others.
 */
export class FirmRateLimit {
  readonly #perMinute: number;
  readonly #now: () => number;
  readonly #recent = new Map<string, number[]>();

  constructor(perMinute: number, now: () => number = Date.now) {
    this.#perMinute = perMinute;
    this.#now = now;
  }

  /** Counts one question for the firm, or throws RateLimited (429) naming when to retry. */
  take(firm: string): void {
    const now = this.#now();
    const times = (this.#recent.get(firm) ?? []).filter((t) => now - t < WINDOW_MS);
    if (times.length >= this.#perMinute) {
      this.#recent.set(firm, times);
      const seconds = Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
      throw new RateLimited(AI_MESSAGES.rateLimited(seconds), seconds);
    }
    times.push(now);
    this.#recent.set(firm, times);
  }
}
