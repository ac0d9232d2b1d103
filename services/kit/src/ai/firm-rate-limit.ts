import { RateLimited } from '../errors.ts';
import { AI_MESSAGES } from './ai-assistant.ts';

const WINDOW_MS = 60_000;
/** The part of the firm's minute one user may spend unless configured otherwise. */
export const DEFAULT_USER_SHARE_PERCENT = 50;

/**
 * At most `perMinute` questions per firm in any sliding minute, in this process: one firm
 * cannot spend the whole provider quota (or the CPU of the embedded engine) of the others.
 * Within it one user may ask at most `userSharePercent` of the firm's minute (at least one
 * question), so one person, or one stolen token, cannot lock their colleagues out.
 */
export class FirmRateLimit {
  readonly #perMinute: number;
  readonly #perUser: number;
  readonly #now: () => number;
  readonly #recent = new Map<string, number[]>();

  constructor(perMinute: number, now: () => number = Date.now, userSharePercent = DEFAULT_USER_SHARE_PERCENT) {
    this.#perMinute = perMinute;
    this.#perUser = Math.max(1, Math.floor((perMinute * userSharePercent) / 100));
    this.#now = now;
  }

  /** Counts one question for the firm (and the asking user), or throws RateLimited (429) naming when to retry. */
  take(firm: string, user?: string): void {
    const now = this.#now();
    const userKey = user === undefined ? null : `${firm}\u0000${user}`;
    const firmTimes = this.#within(firm, now);
    const userTimes = userKey === null ? null : this.#within(userKey, now);
    if (userTimes && userTimes.length >= this.#perUser) throw new RateLimited(AI_MESSAGES.userRateLimited(retryIn(userTimes, now)), retryIn(userTimes, now));
    if (firmTimes.length >= this.#perMinute) throw new RateLimited(AI_MESSAGES.rateLimited(retryIn(firmTimes, now)), retryIn(firmTimes, now));
    firmTimes.push(now);
    userTimes?.push(now);
  }

  /** The key's question times within the last minute (kept, so a caller's push is recorded). */
  #within(key: string, now: number): number[] {
    const times = (this.#recent.get(key) ?? []).filter((t) => now - t < WINDOW_MS);
    this.#recent.set(key, times);
    return times;
  }
}

const retryIn = (times: readonly number[], now: number): number => Math.max(1, Math.ceil((times[0]! + WINDOW_MS - now) / 1000));
