import { RateLimited } from '@ledgerline/kit/errors.ts';

export interface ThrottleLimits {
  maxFailuresPerUser: number;
  maxFailuresPerIp: number;
  windowSeconds: number;
}

/**
 * Failed-login counters per username and per client IP over a sliding window. A
 * success clears the username's count (not the IP's: one good password must not reset
 * a spray across many accounts). Kept in process memory: each identity replica limits
 * on its own, which bounds guessing to replicas × limit per window.
 */
export class LoginThrottle {
  readonly #failures = new Map<string, number[]>();
  readonly #limits: ThrottleLimits;
  readonly #now: () => number;

  constructor(limits: ThrottleLimits, now: () => number = Date.now) {
    this.#limits = limits;
    this.#now = now;
  }

  assertAllowed(userKey: string, ip: string): void {
    const retry = Math.max(
      this.#retryAfterSeconds(`u:${userKey}`, this.#limits.maxFailuresPerUser),
      this.#retryAfterSeconds(`ip:${ip}`, this.#limits.maxFailuresPerIp),
    );
    if (retry > 0) {
      const minutes = Math.ceil(retry / 60);
      throw new RateLimited(`Too many failed login attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retry);
    }
  }

  recordFailure(userKey: string, ip: string): void {
    for (const key of [`u:${userKey}`, `ip:${ip}`]) {
      const list = this.#recent(key);
      list.push(this.#now());
      this.#failures.set(key, list);
    }
    if (this.#failures.size > 100_000) this.#prune();
  }

  recordSuccess(userKey: string): void {
    this.#failures.delete(`u:${userKey}`);
  }

  #retryAfterSeconds(key: string, max: number): number {
    const list = this.#recent(key);
    if (list.length < max) return 0;
    const oldestCounted = list[list.length - max]!;
    return Math.max(1, Math.ceil((oldestCounted + this.#limits.windowSeconds * 1000 - this.#now()) / 1000));
  }

  #recent(key: string): number[] {
    const since = this.#now() - this.#limits.windowSeconds * 1000;
    return (this.#failures.get(key) ?? []).filter((t) => t > since);
  }

  #prune(): void {
    for (const key of this.#failures.keys()) {
      if (this.#recent(key).length === 0) this.#failures.delete(key);
    }
  }
}
