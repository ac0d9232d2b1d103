/**
 * Runs at most `limit` tasks at once; the rest wait in call order. For background work
 * that must not starve the API of CPU (OCR, text extraction), whatever the bus delivers.
 */
export interface ConcurrencyLimit {
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Tasks running now. */
  readonly active: number;
  /** Tasks waiting for a slot. */
  readonly waiting: number;
}

export function concurrencyLimit(limit: number): ConcurrencyLimit {
  if (!Number.isInteger(limit) || limit < 1) throw new Error(`Concurrency limit must be a positive integer, got ${limit}`);
  let active = 0;
  const queue: (() => void)[] = [];
  return {
    get active() { return active; },
    get waiting() { return queue.length; },
    async run<T>(task: () => Promise<T>): Promise<T> {
      // A finishing task hands its slot straight to the next waiter, so a newcomer can never slip in between.
      if (active >= limit) await new Promise<void>((resolve) => queue.push(resolve));
      else active++;
      try {
        return await task();
      } finally {
        const next = queue.shift();
        if (next) next();
        else active--;
      }
    },
  };
}
