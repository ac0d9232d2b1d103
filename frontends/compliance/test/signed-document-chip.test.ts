import { describe, expect, it } from '@jest/globals';
import { signedDocumentLabel } from '../src/signed-document-chip.tsx';

describe('the signed document on a tracker item', () => {
  it('says what was signed and on which day', () => {
    expect(signedDocumentLabel({ fileId: 7, signedAt: '2027-03-12T12:00:00.000Z', title: 'Form 8879 2026' })).toBe('Form 8879 2026 signed 03/12/2027');
  });
});
