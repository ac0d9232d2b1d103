import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import {
  AUTH_REQUIRED_MESSAGE,
  checkStoredToken,
  downloadFile,
  failureText,
  INVALID_TOKEN_MESSAGE,
  isScriptable,
  isViewable,
  staysInTab,
  TokenCheckError,
  viewFile,
} from '@ledgerline/ui/file-access.ts';
import { activeToast, latestToast } from '@ledgerline/ui/toast-store.ts';
import { installFetch, installLocalStorage } from './browser-globals.ts';

// A JWT's shape: three base64url parts, well over 50 characters.
const JWT = `${'e'.repeat(36)}.${'p'.repeat(40)}.${'s'.repeat(43)}`;
const ACME = JSON.stringify({ id: 1, name: 'Acme', shortName: 'acme', isActive: true });

/** A tab window.open gave: where it was sent, and whether it was closed. */
class FakeTab {
  url = 'about:blank';
  closed = false;
  readonly location = { replace: (url: string) => { this.url = url; } };
  close(): void {
    this.closed = true;
  }
}

/**
 * window.open, document (for the download link) and URL's object URLs, recorded in order:
 * 'open', 'fetch {method} {url}', 'objectUrl', 'revoke', 'save {name} {href}'.
 */
interface FakeBrowser {
  tabs: FakeTab[];
  events: string[];
  objectUrls: string[];
  saved: { name: string; href: string }[];
}

function installBrowser(options: { blockPopups?: boolean } = {}): FakeBrowser {
  const browser: FakeBrowser = { tabs: [], events: [], objectUrls: [], saved: [] };
  const define = (target: object, key: string, value: unknown) => Object.defineProperty(target, key, { value, configurable: true, writable: true });
  define(globalThis, 'window', {
    open: (url?: string, target?: string) => {
      browser.events.push(`open ${url ?? ''} ${target ?? ''}`.trimEnd());
      if (options.blockPopups) return null;
      const tab = new FakeTab();
      if (url) tab.url = url;
      browser.tabs.push(tab);
      return tab;
    },
  });
  define(globalThis, 'document', {
    body: { appendChild: () => undefined },
    createElement: () => {
      const link = {
        href: '', download: '', style: {},
        click: () => {
          browser.events.push(`save ${link.download}`);
          browser.saved.push({ name: link.download, href: link.href });
        },
        remove: () => undefined,
      };
      return link;
    },
  });
  let next = 0;
  define(URL, 'createObjectURL', () => {
    const url = `blob:portal/${(next += 1)}`;
    browser.events.push('objectUrl');
    browser.objectUrls.push(url);
    return url;
  });
  define(URL, 'revokeObjectURL', (url: string) => browser.events.push(`revoke ${url}`));
  return browser;
}

const realObjectUrls = { create: URL.createObjectURL, revoke: URL.revokeObjectURL };
function removeBrowser(): void {
  Reflect.deleteProperty(globalThis, 'window');
  Reflect.deleteProperty(globalThis, 'document');
  Object.defineProperty(URL, 'createObjectURL', { value: realObjectUrls.create, configurable: true, writable: true });
  Object.defineProperty(URL, 'revokeObjectURL', { value: realObjectUrls.revoke, configurable: true, writable: true });
}

/** fetch answered by `respond`, which may take its time (or never answer); requests are logged. */
function installSlowFetch(browser: FakeBrowser, respond: (url: string, init: RequestInit) => Promise<Response>): void {
  Object.defineProperty(globalThis, 'fetch', {
    value: (input: string | URL | Request, init: RequestInit = {}) => {
      browser.events.push(`fetch ${init.method ?? 'GET'} ${String(input)}`);
      return respond(String(input), init);
    },
    configurable: true,
    writable: true,
  });
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => { resolve = done; });
  return { promise, resolve };
}

/** Lets every pending fetch answer and body read finish (not a timer: those are faked). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i += 1) await new Promise((done) => setImmediate(done));
}

const NEVER = new Promise<Response>(() => undefined);

describe('file access', () => {
  let storage: Storage;
  let browser: FakeBrowser;
  beforeEach(() => {
    storage = installLocalStorage();
    browser = installBrowser();
    // Timers are the clock under test (the 1000 ms cleanup); fetch, body reads and settle() are not.
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'Date', 'hrtime', 'performance'] });
  });
  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
    removeBrowser();
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

    it('tells a view failure with the status, keeping the token on 404, and closes the tab it opened', async () => {
      storage.setItem('token', JWT);
      installFetch(() => new Response('', { status: 404, statusText: 'Not Found' }));
      await viewFile({ id: 8, originalName: 'report.pdf' });
      expect(activeToast()).toMatchObject({ severity: 'error', detail: 'Failed to view file: Failed to access file: 404' });
      expect(storage.getItem('token')).toBe(JWT);
      expect(browser.tabs).toHaveLength(1);
      expect(browser.tabs[0]).toMatchObject({ url: 'about:blank', closed: true });
      expect(browser.objectUrls).toEqual([]);
    });

    it('closes the pre-opened tab when the fetch itself fails', async () => {
      storage.setItem('token', JWT);
      installSlowFetch(browser, async () => { throw new TypeError('Failed to fetch'); });
      await viewFile({ id: 8, originalName: 'report.pdf' });
      expect(browser.tabs.map((tab) => tab.closed)).toEqual([true]);
      expect(latestToast()).toMatchObject({ severity: 'error', detail: 'Failed to view file: Failed to fetch' });
    });

    it('asks to log in again without calling the server or opening a tab when no token is stored', async () => {
      const requests = installFetch(() => new Response('{}'));
      await viewFile({ id: 8, originalName: 'report.pdf' });
      expect(requests).toEqual([]);
      expect(browser.events).toEqual([]);
      expect(activeToast()).toMatchObject({ severity: 'error', detail: AUTH_REQUIRED_MESSAGE });
    });

    it('closes the tab and clears the token when the public link of an SVG is refused', async () => {
      storage.setItem('currentTenant', ACME);
      storage.setItem('token', JWT);
      installFetch(() => new Response(JSON.stringify({ message: 'Access denied' }), { status: 403 }));
      await viewFile({ id: 9, originalName: 'logo.svg' }, { strictToken: true });
      expect(browser.tabs.map((tab) => [tab.url, tab.closed])).toEqual([['about:blank', true]]);
      expect(latestToast()).toMatchObject({ severity: 'error', detail: 'Failed to view file: Failed to access file: 403' });
      expect(storage.getItem('token')).toBeNull();
    });
  });

  describe('viewing (spec 001 §4, §9)', () => {
    const fileResponse = (body: string, type: string) => new Response(body, { status: 200, headers: { 'Content-Type': type } });
    beforeEach(() => {
      storage.setItem('currentTenant', ACME);
      storage.setItem('token', JWT);
    });

    it('opens the tab while the click is still the user\'s, before the file has come', async () => {
      const answer = deferred<Response>();
      installSlowFetch(browser, (url) => (url.endsWith('/activity-logs') ? Promise.resolve(new Response('{}')) : answer.promise));
      const viewing = viewFile({ id: 8, originalName: 'report.pdf' });
      // Nothing awaited yet: the tab is already open, blank, and the file is being fetched.
      expect(browser.events).toEqual(['open  _blank', 'fetch GET /api/acme/files/8']);
      expect(browser.tabs.map((tab) => tab.url)).toEqual(['about:blank']);

      answer.resolve(fileResponse('%PDF-1.7', 'application/pdf'));
      await viewing;
      expect(browser.tabs.map((tab) => [tab.url, tab.closed])).toEqual([['blob:portal/1', false]]);
      expect(browser.events).toEqual(['open  _blank', 'fetch GET /api/acme/files/8', 'objectUrl', 'fetch POST /api/acme/activity-logs']);
    });

    it('revokes after 1000 ms and closes-and-downloads a text file, without waiting on a hanging activity post', async () => {
      installSlowFetch(browser, (url) => (url.endsWith('/activity-logs') ? NEVER : Promise.resolve(fileResponse('a,b', 'text/csv'))));
      void viewFile({ id: 8, originalName: 'ledger.csv' });
      await settle();
      expect(browser.events.at(-1)).toBe('fetch POST /api/acme/activity-logs');
      const [tab] = browser.tabs;
      expect([tab!.url, tab!.closed]).toEqual(['blob:portal/1', false]);

      await jest.advanceTimersByTimeAsync(999);
      expect(browser.events).not.toContain('revoke blob:portal/1');
      expect(tab!.closed).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      expect(browser.events).toContain('revoke blob:portal/1');
      expect(tab!.closed).toBe(true);
      expect(browser.saved).toEqual([{ name: 'ledger.csv', href: 'blob:portal/2' }]);
    });

    it('keeps an image or PDF in its tab after the cleanup', async () => {
      installSlowFetch(browser, async () => fileResponse('%PDF-1.7', 'application/pdf'));
      await viewFile({ id: 8, originalName: 'report.pdf' });
      await jest.advanceTimersByTimeAsync(1000);
      expect(browser.events).toContain('revoke blob:portal/1');
      expect(browser.tabs.map((tab) => tab.closed)).toEqual([false]);
      expect(browser.saved).toEqual([]);
    });

    it('downloads instead when the popup is blocked', async () => {
      removeBrowser();
      browser = installBrowser({ blockPopups: true });
      installSlowFetch(browser, async (url) => (url.endsWith('/activity-logs') ? new Response('{}') : fileResponse('%PDF-1.7', 'application/pdf')));
      await viewFile({ id: 8, originalName: 'report.pdf' });
      expect(browser.saved).toEqual([{ name: 'report.pdf', href: expect.stringMatching(/^blob:portal\//) }]);
      expect(browser.events).toContain('fetch POST /api/acme/activity-logs');
    });

    it('opens an SVG through its signed public link, never as a blob: URL, and leaves it in the tab', async () => {
      const link = '/api/acme/public/files/9?token=abc.def';
      const requests: { url: string; init: RequestInit }[] = [];
      installSlowFetch(browser, async (url, init) => {
        requests.push({ url, init });
        return url.endsWith('/public-link') ? new Response(JSON.stringify({ url: link, expiresAt: '2030-01-01T00:00:00.000Z' })) : new Response('{}');
      });
      expect(isScriptable('Logo.SVG')).toBe(true);
      await viewFile({ id: 9, originalName: 'Logo.SVG' }, { strictToken: true });
      expect(browser.events).toEqual(['open  _blank', 'fetch POST /api/acme/files/9/public-link', 'fetch POST /api/acme/activity-logs']);
      expect(new Headers(requests[0]!.init.headers).get('Authorization')).toBe(`Bearer ${JWT}`);
      expect(browser.tabs.map((tab) => tab.url)).toEqual([link]);
      await jest.advanceTimersByTimeAsync(1000);
      expect(browser.tabs.map((tab) => tab.closed)).toEqual([false]);
      expect(browser.objectUrls).toEqual([]);
      expect(browser.saved).toEqual([]);
    });

    it('opens XML through the public link too, then closes the tab and downloads it from the link', async () => {
      const link = '/api/acme/public/files/10?token=abc.def';
      installSlowFetch(browser, async (url) => (url.endsWith('/public-link') ? new Response(JSON.stringify({ url: link, expiresAt: '2030-01-01T00:00:00.000Z' })) : NEVER));
      void viewFile({ id: 10, originalName: 'invoice.xml' });
      await settle();
      expect(browser.tabs.map((tab) => [tab.url, tab.closed])).toEqual([[link, false]]);
      await jest.advanceTimersByTimeAsync(1000);
      expect(browser.tabs.map((tab) => tab.closed)).toEqual([true]);
      expect(browser.saved).toEqual([{ name: 'invoice.xml', href: `${link}&download=1` }]);
      expect(browser.objectUrls).toEqual([]);
      expect(browser.events.filter((event) => event.startsWith('fetch GET'))).toEqual([]);
    });

    it('gives a viewed blob the type its name has, whatever the server said', async () => {
      const blobs: Blob[] = [];
      Object.defineProperty(URL, 'createObjectURL', { value: (blob: Blob) => { blobs.push(blob); return 'blob:portal/1'; }, configurable: true, writable: true });
      installSlowFetch(browser, async (url) => (url.endsWith('/activity-logs') ? new Response('{}') : fileResponse('<script>alert(1)</script>', 'text/html')));
      await viewFile({ id: 11, originalName: 'notes.txt' });
      expect(blobs.map((blob) => blob.type)).toEqual(['text/plain']);
    });
  });

  describe('downloading', () => {
    it('saves the file and says so without waiting on a hanging activity post', async () => {
      storage.setItem('currentTenant', ACME);
      storage.setItem('token', JWT);
      installSlowFetch(browser, (url) => (url.endsWith('/activity-logs') ? NEVER : Promise.resolve(new Response('PK', { headers: { 'Content-Type': 'application/zip' } }))));
      const downloading = downloadFile({ id: 12, originalName: 'books.zip' });
      await settle();
      expect(browser.events).toContain('fetch POST /api/acme/activity-logs');
      expect(browser.saved).toEqual([{ name: 'books.zip', href: 'blob:portal/1' }]);
      expect(latestToast()).toMatchObject({ severity: 'success', detail: 'File downloaded successfully' });
      await downloading;
    });

    it('tells onRecorded once the activity post has settled, whether it landed or failed', async () => {
      storage.setItem('currentTenant', ACME);
      storage.setItem('token', JWT);
      for (const post of [() => new Response('{}'), () => new Response('{"message":"File not found"}', { status: 404 })]) {
        const answer = deferred<Response>();
        installSlowFetch(browser, (url) => (url.endsWith('/activity-logs') ? answer.promise : Promise.resolve(new Response('PK', { headers: { 'Content-Type': 'application/zip' } }))));
        let recorded = 0;
        await downloadFile({ id: 12, originalName: 'books.zip' }, { onRecorded: () => { recorded += 1; } });
        await settle();
        expect(recorded).toBe(0);
        answer.resolve(post());
        await settle();
        expect(recorded).toBe(1);
      }
    });
  });
});
