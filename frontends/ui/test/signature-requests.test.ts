import { describe, expect, it } from '@jest/globals';
import { newSignatureRequestPath, readSignaturePrefill } from '../src/signature-requests.ts';

describe('the create dialog\'s prefill from a tracker item', () => {
  it('round-trips through the address', () => {
    const path = newSignatureRequestPath({ clientId: 4, reportTypeId: 7, trackerItemId: 12, title: 'Form 1040 2026: signature & more' });
    expect(path.startsWith('/signatures?new=1&')).toBe(true);
    expect(readSignaturePrefill(path.slice(path.indexOf('?')))).toEqual({ clientId: 4, reportTypeId: 7, trackerItemId: 12, title: 'Form 1040 2026: signature & more' });
  });

  it('no dialog without new=1; ids that are not ids are left out', () => {
    expect(readSignaturePrefill('?clientId=4')).toBeNull();
    expect(readSignaturePrefill('?new=1&clientId=x&reportTypeId=-2&trackerItemId=1.5')).toEqual({});
  });
});
