import { beforeEach, describe, expect, it } from '@jest/globals';
import {
  AUTH_REQUIRED_MESSAGE,
  checkStoredToken,
  downloadFile,
  failureText,
  INVALID_TOKEN_MESSAGE,
  isViewable,
  staysInTab,
  TokenCheckError,
  viewFile,
} from '@ledgerline/ui/file-access.ts';
import { activeToast } from '@ledgerline/ui/toast-store.ts';
import { installFetch, installLocalStorage } from './browser-globals.ts';

// A JWT's shape: three base64url parts, well over 50 characters.
const JWT = `${'e'.repeat(36)}.${'p'.repeat(40)}.${'s'.repeat(43)}`;

describe('file access', () => {
  let storage: Storage;
  beforeEach(() => {
    storage = installLocalStorage();
  });

  describe('checkStoredToken (spec 001 §5)', () => {
    it('answers the stored token when it exists, is over 50 characters and has a dot', () => {
      storage.setItem('token', JWT);
      expect(checkStoredToken()).toBe(JWT);
      expect(checkStoredToken(true)).toBe(JWT);
    });

    it('reads authToken first, like every other call', () => {
      storage.setItem('token', 'x');
      storage.setItem('authToken', JWT);
      expect(checkStoredToken(true)).toBe(JWT);
    });

    it('asks to log in again when there is no token, and leaves storage alone', () => {
      storage.setItem('user', '{"id":1}');
      expect(() => checkStoredToken()).toThrow(new TokenCheckError(AUTH_REQUIRED_MESSAGE));
      expect(AUTH_REQUIRED_MESSAGE).toBe('Authentication required. Please log in again.');
      expect(storage.getItem('user')).toBe('{"id":1}');
    });

    it.each([
      ['50 characters exactly', `${'a'.repeat(25)}.${'b'.repeat(24)}`],
      ['no dot', 'a'.repeat(80)],
    ])('removes a malformed token (%s) and asks to log in again', (_case, token) => {
      storage.setItem('token', token);
      storage.setItem('authToken', token);
      storage.setItem('user', '{"id":1}');
      expect(() => checkStoredToken()).toThrow(INVALID_TOKEN_MESSAGE);
      expect(INVALID_TOKEN_MESSAGE).toBe('Invalid authentication token. Please log in again.');
      expect(storage.getItem('token')).toBeNull();
      expect(storage.getItem('authToken')).toBeNull();
      // Only the token goes: the user and tenant stay for the next sign-in.
      expect(storage.getItem('user')).toBe('{"id":1}');
    });

    it('accepts 51 characters with a dot, but strict mode wants exactly three parts', () => {
      const twoParts = `${'a'.repeat(25)}.${'b'.repeat(25)}`;
      storage.setItem('token', twoParts);
      expect(checkStoredToken()).toBe(twoParts);
      expect(() => checkStoredToken(true)).toThrow(INVALID_TOKEN_MESSAGE);
      expect(storage.getItem('token')).toBeNull();

      storage.setItem('token', `${JWT}.extra`);
      expect(() => checkStoredToken(true)).toThrow(INVALID_TOKEN_MESSAGE);
    });
  });

  describe('classification by extension (spec 001 §4)', () => {
    it('opens the spec\'s viewable types in a tab, case-insensitively', () => {
      const viewable = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'ico', 'pdf', 'txt', 'csv', 'xml', 'json', 'mp3', 'wav', 'ogg', 'flac', 'mp4', 'avi', 'mov', 'wmv', 'mkv'];
      for (const extension of viewable) expect([extension, isViewable(`file.${extension}`)]).toEqual([extension, true]);
      expect(isViewable('Scan.PNG')).toBe(true);
      expect(isViewable('archive.2024.Report.Pdf')).toBe(true);
    });

    it('downloads the download-only types and anything unknown', () => {
      for (const extension of ['doc', 'docx', 'xls', 'xlsx', 'ppt', 'pptx', 'rtf', 'zip', 'rar', '7z', 'tar', 'gz']) {
        expect([extension, isViewable(`file.${extension}`)]).toEqual([extension, false]);
      }
      expect(isViewable('setup.exe')).toBe(false);
      expect(isViewable('README')).toBe(false);
      expect(isViewable('backup.tar.gz')).toBe(false);
    });

    it('keeps only images and PDFs in the opened tab', () => {
      expect(staysInTab('a.pdf')).toBe(true);
      expect(staysInTab('a.SVG')).toBe(true);
      expect(staysInTab('a.ico')).toBe(true);
      expect(staysInTab('a.txt')).toBe(false);
      expect(staysInTab('a.mp4')).toBe(false);
    });

    it('goes by the last extension only; a bare name is unknown', () => {
      expect(isViewable('scan.pdf.zip')).toBe(false);
      expect(isViewable('pdf')).toBe(false);
    });
  });

  describe('failure texts (spec 001 §8)', () => {
    it('prefixes the reason, says a repeated prefix once, and falls back', () => {
      expect(failureText('Failed to view file', new Error('Failed to access file: 404'))).toBe('Failed to view file: Failed to access file: 404');
      expect(failureText('Failed to download file', new Error('Failed to download file: 404 File not found'))).toBe('Failed to download file: 404 File not found');
      expect(failureText('Failed to download file', undefined, 'Unknown error')).toBe('Failed to download file: Unknown error');
      expect(failureText('Failed to view file', new Error(''))).toBe('Failed to view file');
      expect(failureText('Failed to view file', new TokenCheckError(AUTH_REQUIRED_MESSAGE))).toBe(AUTH_REQUIRED_MESSAGE);
    });
  });

  describe('a refused file', () => {
    it('tells the download failure with status and server message, clears the token on 403 and posts no activity', async () => {
      storage.setItem('currentTenant', JSON.stringify({ id: 1, name: 'Acme', shortName: 'acme', isActive: true }));
      storage.setItem('token', JWT);
      const requests = installFetch(() => new Response(JSON.stringify({ message: 'Access denied' }), { status: 403, statusText: 'Forbidden' }));
      await downloadFile({ id: 7, originalName: 'ledger.xlsx' }, { strictToken: true });
      expect(requests.map((r) => [r.url, new Headers(r.init.headers).get('Authorization')])).toEqual([['/api/acme/files/7', `Bearer ${JWT}`]]);
      expect(activeToast()).toMatchObject({ severity: 'error', detail: 'Failed to download file: 403 Access denied' });
      expect(storage.getItem('token')).toBeNull();
    });

    it('tells a view failure with the status, keeping the token on 404', async () => {
      storage.setItem('token', JWT);
      installFetch(() => new Response('', { status: 404, statusText: 'Not Found' }));
      await viewFile({ id: 8, originalName: 'report.pdf' });
      expect(activeToast()).toMatchObject({ severity: 'error', detail: 'Failed to view file: Failed to access file: 404' });
      expect(storage.getItem('token')).toBe(JWT);
    });

    it('asks to log in again without calling the server when no token is stored', async () => {
      const requests = installFetch(() => new Response('{}'));
      await viewFile({ id: 8, originalName: 'report.pdf' });
      expect(requests).toEqual([]);
      expect(activeToast()).toMatchObject({ severity: 'error', detail: AUTH_REQUIRED_MESSAGE });
    });
  });
});
