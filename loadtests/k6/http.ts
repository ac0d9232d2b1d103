import http, { type RefinedResponse, type ResponseType } from 'k6/http';
import { BASE_URL } from './config.ts';
import { groupTag } from './groups.ts';

/** A 403 or 404 the caller waits through does not count in http_req_failed. */
const REFUSAL_EXPECTED = http.expectedStatuses({ min: 200, max: 299 }, 403, 404);

export type Answer = RefinedResponse<ResponseType | undefined>;

/**
 * One API call timed under `group`. The tag is set on the request as well as by k6's
 * group(): calls made from a socket's event handlers run after group() has returned.
 */
export function call(group: string, method: string, path: string, options: { token?: string; json?: unknown; body?: string; contentType?: string; timeout?: string; refusalExpected?: boolean } = {}): Answer {
  const headers: Record<string, string> = {};
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | null = null;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  } else if (options.body !== undefined) {
    headers['Content-Type'] = options.contentType ?? 'application/octet-stream';
    body = options.body;
  }
  return http.request(method, `${BASE_URL}${path}`, body, {
    headers, tags: { group: groupTag(group), name: `${method} ${path.replace(/\/\d+(?=\/|$|\?)/g, '/{id}').replace(/\?.*$/, '')}` }, timeout: options.timeout ?? '120s',
    ...(options.refusalExpected ? { responseCallback: REFUSAL_EXPECTED } : {}),
  });
}

/** The answer's JSON body, or undefined when it is not JSON. */
export function json<T>(answer: Answer): T | undefined {
  try {
    return answer.json() as T;
  } catch {
    return undefined;
  }
}

export const ok = (answer: Answer): boolean => answer.status >= 200 && answer.status < 300;

/**
 * A multipart/form-data body with the fields before the file, as the upload form sends it
 * (the files service reads the fields first). Built by hand: k6's object bodies do not
 * promise an order. The content is text, so the body stays a string.
 */
export function multipart(fields: Record<string, string>, file: { name: string; type: string; content: string }): { body: string; contentType: string } {
  const boundary = `----ledgerline-load-${Math.random().toString(36).slice(2)}`;
  const parts = Object.entries(fields).map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`);
  return { body: `${parts.join('')}${file.content}\r\n--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
}
