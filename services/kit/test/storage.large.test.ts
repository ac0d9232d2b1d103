import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { ObjectStore } from '@ledgerline/kit/storage/object-store.ts';
import { objectStoreTargets } from '@ledgerline/kit/storage/object-store-targets.ts';
import type { OpenedObjectStore } from '@ledgerline/kit/storage/object-store-targets.ts';

// A 200 MB round trip takes seconds locally and tens of seconds against S3 on 2 cores.
jest.setTimeout(300_000);

const MB = 1024 * 1024;
const TOTAL_BYTES = 200 * MB;
const CHUNK_BYTES = 64 * 1024;
/** Far below the body size: a store that buffered the body, or a part per chunk, fails this. */
const MAX_GROWTH_BYTES = 100 * MB;

/*
 * A full collection before each sample, so a sample counts what is live: without it
 * `arrayBuffers` also counted dead chunks V8 had not yet taken (its external-memory trigger
 * runs only ~64 MB past the last collection), and CI failed at 152 MB for a store that held
 * a few megabytes at a time. Samples are taken every SAMPLE_EVERY_BYTES of the body, mid
 * stream (a dozen collections a phase): on a timer, collections in a large test worker's heap
 * took the event loop and the 200 MB crawled.
 */
const SAMPLE_EVERY_BYTES = 16 * MB;
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

/**
 * Deterministic pseudo-random bytes (xorshift32), generated one chunk per read and
 * hashed as they are handed out, so the body never exists in memory as a whole.
 */
class GeneratedBody extends Readable {
  readonly hash = createHash('sha256');
  #remaining: number;
  #state: number;
  /** Called with the bytes handed out so far, after each chunk. */
  onProgress: (bytes: number) => void = () => undefined;
  readonly #total: number;

  constructor(bytes: number, seed: number) {
    super();
    this.#remaining = bytes;
    this.#total = bytes;
    this.#state = seed;
  }

  override _read(): void {
    if (this.#remaining === 0) {
      this.push(null);
      return;
    }
    const words = new Uint32Array(Math.min(CHUNK_BYTES, this.#remaining) / 4);
    let x = this.#state;
    for (let i = 0; i < words.length; i++) {
      x ^= x << 13;
      x ^= x >>> 17;
      x ^= x << 5;
      words[i] = x;
    }
    this.#state = x;
    const chunk = Buffer.from(words.buffer);
    this.#remaining -= chunk.length;
    this.hash.update(chunk);
    this.push(chunk);
    this.onProgress(this.#total - this.#remaining);
  }
}

type Measured = 'rss' | 'heapUsed' | 'arrayBuffers';

/**
 * Live memory's largest growth over what was live before a phase, sampled when the phase's
 * stream passes each SAMPLE_EVERY_BYTES (`progress`) and at its end.
 */
class LiveMemoryGrowth {
  readonly peak: Record<Measured, number> = { rss: 0, heapUsed: 0, arrayBuffers: 0 };
  readonly #baseline: NodeJS.MemoryUsage;
  #nextSampleAt = SAMPLE_EVERY_BYTES;

  constructor() {
    collect();
    this.#baseline = process.memoryUsage();
  }

  progress(bytes: number): void {
    if (bytes < this.#nextSampleAt) return;
    this.#nextSampleAt += SAMPLE_EVERY_BYTES;
    this.sample();
  }

  sample(): void {
    collect();
    const now = process.memoryUsage();
    for (const k of Object.keys(this.peak) as Measured[]) this.peak[k] = Math.max(this.peak[k], now[k] - this.#baseline[k]);
  }
}

const mb = (bytes: number): string => `${(bytes / MB).toFixed(1)} MB`;

describe.each(objectStoreTargets())('$kind object store with a 200 MB body', (target) => {
  let opened: OpenedObjectStore;
  let store: ObjectStore;
  const key = `large-${randomUUID()}/body.bin`;

  beforeAll(async () => {
    // The production part size: this is the memory bound being checked.
    opened = await target.open();
    store = opened.store;
  });
  afterAll(async () => {
    await store.delete(key);
    await opened.close();
  });

  it('streams it in and out byte-identical with memory growth under 100 MB', async () => {
    const body = new GeneratedBody(TOTAL_BYTES, 0x2545f491);
    let size = 0;
    const putStarted = performance.now();
    const put = new LiveMemoryGrowth();
    body.onProgress = (bytes) => put.progress(bytes);
    ({ size } = await store.put(key, body, { contentType: 'application/octet-stream' }));
    put.sample();
    const putGrowth = put.peak;
    const putSeconds = (performance.now() - putStarted) / 1000;

    const readHash = createHash('sha256');
    let readBytes = 0;
    const getStarted = performance.now();
    const get = new LiveMemoryGrowth();
    for await (const chunk of await store.get(key)) {
      readHash.update(chunk as Buffer);
      readBytes += (chunk as Buffer).length;
      get.progress(readBytes);
    }
    get.sample();
    const getGrowth = get.peak;
    const getSeconds = (performance.now() - getStarted) / 1000;

    const report = (g: Record<Measured, number>): string => `rss +${mb(g.rss)}, heapUsed +${mb(g.heapUsed)}, arrayBuffers +${mb(g.arrayBuffers)}`;
    console.info(
      `${target.kind}: put ${(TOTAL_BYTES / MB / putSeconds).toFixed(0)} MB/s (${report(putGrowth)}); ` +
        `get ${(TOTAL_BYTES / MB / getSeconds).toFixed(0)} MB/s (${report(getGrowth)})`,
    );
    expect(size).toBe(TOTAL_BYTES);
    expect((await store.stat(key)).size).toBe(TOTAL_BYTES);
    expect(readBytes).toBe(TOTAL_BYTES);
    expect(readHash.digest('hex')).toBe(body.hash.digest('hex'));
    for (const growth of [putGrowth, getGrowth]) {
      expect(growth.rss).toBeLessThan(MAX_GROWTH_BYTES);
      expect(growth.heapUsed).toBeLessThan(MAX_GROWTH_BYTES);
      expect(growth.arrayBuffers).toBeLessThan(MAX_GROWTH_BYTES);
    }
  });
});
