// By package name: a relative import would bundle a second ApiError class (see optional-query.ts).
import { ApiError } from '@ledgerline/ui/api-client.ts';
import { readToken } from '@ledgerline/ui/auth-storage.ts';

export interface UploadRequestOptions {
  /** Whole percent of the request body sent so far, 0-100. */
  onProgress?(percent: number): void;
  signal?: AbortSignal;
}

/** Whole percent of `loaded` out of `total`, clamped to 0-100 (0 while the total is unknown). */
export function uploadPercent(loaded: number, total: number): number {
  if (!(total > 0)) return 0;
  return Math.min(100, Math.max(0, Math.round((loaded / total) * 100)));
}

/**
 * POSTs a multipart form with XMLHttpRequest, whose upload events (unlike fetch's) report
 * progress. Sends the stored bearer token like apiRequest; answers the parsed JSON body and
 * rejects with ApiError on a non-2xx reply, so serverMessage() reads the service's message.
 */
export function uploadWithProgress<T>(url: string, form: FormData, options: UploadRequestOptions = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.withCredentials = true;
    const token = readToken();
    if (token) request.setRequestHeader('Authorization', `Bearer ${token}`);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) options.onProgress?.(uploadPercent(event.loaded, event.total));
    };
    request.onload = () => {
      const body = request.responseText;
      if (request.status < 200 || request.status >= 300) {
        reject(new ApiError(request.status, body, request.statusText));
        return;
      }
      options.onProgress?.(100);
      try {
        resolve((body ? JSON.parse(body) : null) as T);
      } catch (error) {
        reject(error);
      }
    };
    request.onerror = () => reject(new Error('Network error'));
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    options.signal?.addEventListener('abort', () => request.abort(), { once: true });
    // The browser writes the multipart boundary into Content-Type itself.
    request.send(form);
  });
}
