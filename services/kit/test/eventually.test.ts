import { describe, expect, it } from '@jest/globals';
import { eventually } from '../src/testing/eventually.ts';

describe('eventually', () => {
  it('waits until an assertion stops throwing or a predicate stops returning false', async () => {
    let n = 0;
    await eventually(() => expect(++n).toBeGreaterThan(3), 2000, 1);
    expect(n).toBe(4);
    let m = 0;
    await eventually(async () => ++m >= 3, 2000, 1);
    expect(m).toBe(3);
  });

  it('rethrows the last failure when time is up', async () => {
    await expect(eventually(() => { throw new Error('still broken'); }, 30, 5)).rejects.toThrow('still broken');
    await expect(eventually(() => false, 30, 5)).rejects.toThrow('condition not met within 30 ms');
  });
});
