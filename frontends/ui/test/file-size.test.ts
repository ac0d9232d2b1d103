import { describe, expect, it } from '@jest/globals';
import { formatFileSize, formatMegabytes } from '@ledgerline/ui/file-size.ts';
import { uploadPercent } from '@ledgerline/ui/upload-request.ts';

describe('file sizes and upload progress', () => {
  it('shows sizes in MB with 2 decimals', () => {
    expect(formatMegabytes(0)).toBe('0.00 MB');
    expect(formatMegabytes(1024 * 1024)).toBe('1.00 MB');
    expect(formatMegabytes(2_621_440)).toBe('2.50 MB');
    expect(formatMegabytes(5_000)).toBe('0.00 MB');
    expect(formatMegabytes(15_000)).toBe('0.01 MB');
    expect(formatMegabytes(null)).toBe('0.00 MB');
    expect(formatMegabytes(Number.NaN)).toBe('0.00 MB');
  });

  it('shows chosen files in B, KB or MB', () => {
    expect(formatFileSize(0)).toBe('0 B');
    expect(formatFileSize(1023)).toBe('1023 B');
    expect(formatFileSize(20_035)).toBe('19.6 KB');
    expect(formatFileSize(3 * 1024 * 1024)).toBe('3.00 MB');
  });

  it('rounds upload progress to whole percent within 0-100', () => {
    expect(uploadPercent(0, 1000)).toBe(0);
    expect(uploadPercent(333, 1000)).toBe(33);
    expect(uploadPercent(1000, 1000)).toBe(100);
    expect(uploadPercent(1200, 1000)).toBe(100);
    expect(uploadPercent(10, 0)).toBe(0);
  });
});
