import type { FieldInput } from '@ledgerline/contracts/signatures.contracts.ts';

/**
 * Where a signature block goes when the firm does not place it (points from the page's
 * top-left corner): two columns of rows in the lower part of the page, within both US Letter
 * (612 × 792) and A4 (595 × 842), so the tax software's 8879 and an engagement letter take it.
 */
export const SIGNATURE_BLOCK = { x: 50, secondX: 320, width: 220, height: 40, firstY: 500, step: 60 } as const;

/** One signature field per signer at the end of the last page: signer 1 left, signer 2 right, then the next row. */
export function signatureBlockAtEnd(lastPage: number, signerCount: number): FieldInput[] {
  return Array.from({ length: signerCount }, (_, signerIndex) => ({
    documentIndex: 0, page: lastPage, type: 'signature' as const, signerIndex, required: true, label: null,
    x: signerIndex % 2 === 0 ? SIGNATURE_BLOCK.x : SIGNATURE_BLOCK.secondX,
    y: SIGNATURE_BLOCK.firstY + Math.floor(signerIndex / 2) * SIGNATURE_BLOCK.step,
    width: SIGNATURE_BLOCK.width, height: SIGNATURE_BLOCK.height,
  }));
}
