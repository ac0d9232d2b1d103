import { describe, expect, it } from '@jest/globals';
import { fitsPage } from '@ledgerline/kit/pdf/fields.ts';
import { signatureBlockAtEnd } from '../src/signature-placement.ts';

describe('signature blocks at the end of the last page', () => {
  it('one signature field per signer on the last page: signer 1 left, signer 2 right, then the next row', () => {
    const fields = signatureBlockAtEnd(2, 3);
    expect(fields.map((f) => [f.page, f.signerIndex, f.type, f.x, f.y])).toEqual([[2, 0, 'signature', 50, 500], [2, 1, 'signature', 320, 500], [2, 2, 'signature', 50, 560]]);
  });

  it('up to ten signers fit US Letter and A4 (the server refuses a field off its page)', () => {
    for (const size of [{ width: 612, height: 792 }, { width: 595, height: 842 }]) {
      for (const f of signatureBlockAtEnd(1, 10)) expect(fitsPage(f, size)).toBe(true);
    }
  });
});
