import { describe, expect, it } from '@jest/globals';
import { handOverSetupResult, listenForSetupResults } from '../src/google-drive-channel.ts';
import { readSetupResult, setupResultToast, withoutSetupResult } from '../src/google-drive-result.ts';

describe('Google Drive setup result', () => {
  it('reads the callback query parameter', () => {
    expect(readSetupResult('?google-drive-setup=success')).toEqual({ status: 'success' });
    expect(readSetupResult('?google-drive-setup=error&message=Access%20denied')).toEqual({ status: 'error', message: 'Access denied' });
    expect(readSetupResult('?google-drive-setup=error')).toEqual({ status: 'error', message: null });
    expect(readSetupResult('?search=x')).toBeNull();
  });

  it("toasts 'Success!' or 'OAuth Error' with the message, else the default", () => {
    expect(setupResultToast({ status: 'success' })).toEqual({ severity: 'success', summary: 'Success!', detail: 'Google Drive has been connected successfully.' });
    expect(setupResultToast({ status: 'error', message: 'Access denied' })).toEqual({ severity: 'error', summary: 'OAuth Error', detail: 'Access denied' });
    expect(setupResultToast({ status: 'error', message: null }).detail).toBe('Failed to connect Google Drive');
  });

  it('drops only the result parameters from the address', () => {
    expect(withoutSetupResult(new URL('http://x/acme/clients?google-drive-setup=error&message=m&keep=1#top'))).toBe('/acme/clients?keep=1#top');
    expect(withoutSetupResult(new URL('http://x/acme/clients?google-drive-setup=success'))).toBe('/acme/clients');
  });

  it('hands the result to a listening opener, which acknowledges it', async () => {
    const received: unknown[] = [];
    const stop = listenForSetupResults((result) => received.push(result));
    try {
      await expect(handOverSetupResult({ status: 'success' })).resolves.toBe(true);
      expect(received).toEqual([{ status: 'success' }]);
    } finally {
      stop();
    }
  });

  it('reports that nobody took the result when no opener listens', async () => {
    await expect(handOverSetupResult({ status: 'error', message: 'x' }, 50)).resolves.toBe(false);
  });
});
