/**
 * A small per-process cache whose entries live `ttlMs`, bounded to `maxEntries` (the
 * oldest go first). For answers every request needs (who the caller is, what they may
 * reach) that a change elsewhere may make stale for at most `ttlMs`.
 */
export class TtlCache<V> {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #entries = new Map<string, { at: number; value: V }>();

  constructor(options: { ttlMs: number; maxEntries: number }) {
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = options.maxEntries;
  }

  get(key: string): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    if (Date.now() - hit.at < this.#ttlMs) return hit.value;
    this.#entries.delete(key);
    return undefined;
  }

  set(key: string, value: V): void {
    this.#entries.delete(key); // re-inserted last: the oldest entry is the first to go
    this.#entries.set(key, { at: Date.now(), value });
    if (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value!);
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
