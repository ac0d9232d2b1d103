/**
 * Viewing and downloading a stored file (spec 001 §4 "File viewing", §5 token check, §8 files
 * messages, §9 1000 ms tab cleanup). Shared by every screen that lists files: the documents
 * screens, the dashboard and the activity feed.
 *
 * Stateful ui modules are imported by package name so module federation gives every remote
 * the one toast store and token storage (see optional-query.ts).
 */
import type { PublicFileLink } from '@ledgerline/contracts/files.contracts.ts';
import { apiJson, apiPath } from '@ledgerline/ui/api-client.ts';
import { clearStoredToken, readToken } from '@ledgerline/ui/auth-storage.ts';
import { fileNameExtension, GENERIC_MEDIA_TYPE, mediaTypeOfFileName } from '@ledgerline/contracts/media-types.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';

export type FileRef = { id: number; originalName: string };

export interface FileAccessOptions {
  /** Table views also require exactly three dot-separated token parts (spec 001 §5). */
  strictToken?: boolean;
  /** Called once the activity-log post of a view or download has settled (either way), so a feed can refetch. */
  onRecorded?: () => void;
}

/** Spec 001 §9. */
export const TOKEN_MIN_LENGTH = 50;
export const VIEW_TAB_CLEANUP_MS = 1000;

export const AUTH_REQUIRED_MESSAGE = 'Authentication required. Please log in again.';
export const INVALID_TOKEN_MESSAGE = 'Invalid authentication token. Please log in again.';

const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'ico'] as const;

/** Opened in a new tab (spec 001 §4); everything else is downloaded. */
export const VIEWABLE_EXTENSIONS: ReadonlySet<string> = new Set([
  ...IMAGE_EXTENSIONS,
  'pdf', 'txt', 'csv', 'xml', 'json',
  'mp3', 'wav', 'ogg', 'flac',
  'mp4', 'avi', 'mov', 'wmv', 'mkv',
]);

/** Types a tab keeps showing; any other viewed type is closed and downloaded after the cleanup. */
const STAYS_IN_TAB: ReadonlySet<string> = new Set([...IMAGE_EXTENSIONS, 'pdf']);

export function isViewable(name: string): boolean {
  return VIEWABLE_EXTENSIONS.has(fileNameExtension(name));
}

/** Images and PDFs stay in the tab they were opened in. */
export function staysInTab(name: string): boolean {
  return STAYS_IN_TAB.has(fileNameExtension(name));
}

/** A failure whose message is already what the user should read (log in again). */
export class TokenCheckError extends Error {
  override readonly name = 'TokenCheckError';
}

/**
 * The stored token, if it looks like one (spec 001 §5): present, over 50 characters, with a
 * dot, and in strict mode exactly three dot-separated parts. A malformed token is removed
 * from storage so the next sign-in starts clean.
 */
export function checkStoredToken(strict = false): string {
  const token = readToken();
  if (!token) throw new TokenCheckError(AUTH_REQUIRED_MESSAGE);
  const wellFormed = token.length > TOKEN_MIN_LENGTH && token.includes('.') && (!strict || token.split('.').length === 3);
  if (!wellFormed) {
    clearStoredToken();
    throw new TokenCheckError(INVALID_TOKEN_MESSAGE);
  }
  return token;
}

/**
 * Types whose documents can run script (SVG, and XML, which may carry XHTML). From a blob:
 * URL they would run in the portal's own origin, next to the stored token; they are opened
 * through a signed public link instead, which the files service serves with nosniff and a
 * sandboxing Content-Security-Policy.
 */
const SCRIPTABLE: ReadonlySet<string> = new Set(['svg', 'xml']);

export function isScriptable(name: string): boolean {
  return SCRIPTABLE.has(fileNameExtension(name));
}

/**
 * Opens a viewable file in a new tab; other types are downloaded. Never rejects: failures are toasts.
 *
 * The tab is opened before anything is awaited, while the click still counts as the user's
 * (a tab opened after the fetch may be blocked as a popup); it is then pointed at the file,
 * or closed if the file cannot be had. A blocked tab turns the view into a download.
 */
export async function viewFile(file: FileRef, options: FileAccessOptions = {}): Promise<void> {
  if (!isViewable(file.originalName)) return downloadFile(file, options);
  let tab: Window | null = null;
  try {
    // Synchronous: a missing or malformed token never opens a tab.
    const token = checkStoredToken(options.strictToken);
    tab = window.open('', '_blank');
    const shown = isScriptable(file.originalName) ? await showThroughPublicLink(file, token, tab) : await showAsObjectUrl(file, token, tab);
    if (shown) recordAccess('view', file, options);
  } catch (error) {
    if (tab && !tab.closed) tab.close();
    showToast({ severity: 'error', summary: 'Error', detail: failureText('Failed to view file', error) });
  }
}

/**
 * Spec 001 §4: the file as a temporary object URL, revoked after the cleanup. False when the
 * user closed the tab before the file came (nothing is shown or saved then).
 */
async function showAsObjectUrl(file: FileRef, token: string, tab: Window | null): Promise<boolean> {
  const response = await fetchFile(file, token);
  if (!response.ok) {
    dropTokenOnDenial(response.status);
    throw new Error(`Failed to access file: ${response.status}`);
  }
  const blob = viewedAs(await response.blob(), file.originalName);
  if (!tab) {
    // A blocked popup must not lose the user's click: hand the file over as a download.
    saveBlob(blob, file.originalName);
    return true;
  }
  if (tab.closed) return false;
  const url = URL.createObjectURL(blob);
  tab.location.replace(url);
  setTimeout(() => {
    URL.revokeObjectURL(url);
    // Browsers show images and PDFs; other "viewable" types may sit in a blank tab.
    if (!tab.closed && !staysInTab(file.originalName)) {
      tab.close();
      saveBlob(blob, file.originalName);
    }
  }, VIEW_TAB_CLEANUP_MS);
  return true;
}

/** A scriptable type: the tab goes to a signed public link, served sandboxed; no blob: URL. */
async function showThroughPublicLink(file: FileRef, token: string, tab: Window | null): Promise<boolean> {
  const response = await fetch(apiPath(`files/${file.id}/public-link`), {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}` },
    credentials: 'include',
  });
  if (!response.ok) {
    dropTokenOnDenial(response.status);
    throw new Error(`Failed to access file: ${response.status}`);
  }
  const { url } = (await response.json()) as PublicFileLink;
  if (!tab) {
    saveLink(url, file.originalName);
    return true;
  }
  if (tab.closed) return false;
  tab.location.replace(url);
  setTimeout(() => {
    if (!tab.closed && !staysInTab(file.originalName)) {
      tab.close();
      saveLink(url, file.originalName);
    }
  }, VIEW_TAB_CLEANUP_MS);
  return true;
}

/** Saves the file under its original name. Never rejects: failures are toasts. */
export async function downloadFile(file: FileRef, options: FileAccessOptions = {}): Promise<void> {
  try {
    const token = checkStoredToken(options.strictToken);
    const response = await fetchFile(file, token);
    if (!response.ok) {
      dropTokenOnDenial(response.status);
      throw new Error(`Failed to download file: ${response.status} ${await responseText(response)}`);
    }
    saveBlob(typed(await response.blob(), file.originalName), file.originalName);
    recordAccess('download', file, options);
    showToast({ severity: 'success', summary: 'Success', detail: 'File downloaded successfully' });
  } catch (error) {
    showToast({ severity: 'error', summary: 'Error', detail: failureText('Failed to download file', error, 'Unknown error') });
  }
}

function fetchFile(file: FileRef, token: string): Promise<Response> {
  return fetch(apiPath(`files/${file.id}`), { headers: { Authorization: `Bearer ${token}` }, credentials: 'include' });
}

/** Spec 001 §8: a 401 or 403 clears the tokens, so the user signs in again. */
function dropTokenOnDenial(status: number): void {
  if (status === 401 || status === 403) clearStoredToken();
}

/** The server's `{ message }` if it sent one, else the status text. */
async function responseText(response: Response): Promise<string> {
  const body = await response.text().catch(() => '');
  try {
    const message = (JSON.parse(body) as { message?: unknown } | null)?.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // Not JSON: fall through to the status text.
  }
  return response.statusText || body;
}

/** A saved blob keeps the server's type; a server answering generic binary still gets the name's type. */
function typed(blob: Blob, name: string): Blob {
  if (blob.type && blob.type !== GENERIC_MEDIA_TYPE) return blob;
  return new Blob([blob], { type: mediaTypeOfFileName(name) });
}

/**
 * A viewed blob always has its name's type: the name decided that it may open from a blob:
 * URL (not scriptable), so a stored type saying otherwise (say text/html) must not render.
 */
function viewedAs(blob: Blob, name: string): Blob {
  const type = mediaTypeOfFileName(name);
  return blob.type === type ? blob : new Blob([blob], { type });
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // The download has started from the link; give the browser a moment before revoking it.
  setTimeout(() => URL.revokeObjectURL(url), VIEW_TAB_CLEANUP_MS);
}

/** Saves a same-origin public link as a file (attachment), without opening what it holds. */
function saveLink(url: string, name: string): void {
  const link = document.createElement('a');
  link.href = `${url}${url.includes('?') ? '&' : '?'}download=1`;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
}

/**
 * Spec 001 §4: the activity log post follows a view or download; its failure is ignored.
 * Not awaited: a slow or hanging post must hold up neither the tab cleanup nor the toast.
 */
function recordAccess(action: 'view' | 'download', file: FileRef, { onRecorded }: FileAccessOptions): void {
  const details = action === 'view' ? `Viewed file: ${file.originalName}` : `Downloaded file: ${file.originalName}`;
  apiJson('POST', apiPath('activity-logs'), { action, fileId: file.id, details })
    .catch(() => {
      // Ignored by design: the user's view or download has already happened.
    })
    .finally(() => onRecorded?.());
}

/** 'Failed to view file: {reason}', or the token check's own words. */
export function failureText(prefix: string, error: unknown, fallback?: string): string {
  if (error instanceof TokenCheckError) return error.message;
  const reason = error instanceof Error ? error.message : error ? String(error) : '';
  // 'Failed to download file: 404 Not Found' already says it; do not say it twice.
  if (reason.startsWith(prefix)) return reason;
  if (reason) return `${prefix}: ${reason}`;
  return fallback ? `${prefix}: ${fallback}` : prefix;
}
