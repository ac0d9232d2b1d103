import type { Recorder } from './metrics.ts';

export interface Answer<T = unknown> { status: number; ok: boolean; body: T }

/**
 * HTTP as a scenario sees it: every call is timed under its endpoint group, from sending
 * to the last byte of the answer. A status outside 2xx counts as a failed request.
 */
export class LoadClient {
  readonly baseUrl: string;
  readonly #recorder: Recorder;

  constructor(baseUrl: string, recorder: Recorder) {
    this.baseUrl = baseUrl.replace(/\/$/, '');
    this.#recorder = recorder;
  }

  async request<T = unknown>(group: string, method: string, path: string, options: { token?: string; json?: unknown; form?: FormData } = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | FormData | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      body = options.form;
    }
    const started = performance.now();
    let status = 0;
    let text = '';
    try {
      const r = await fetch(`${this.baseUrl}${path}`, { method, headers, body, signal: AbortSignal.timeout(120_000) });
      status = r.status;
      text = await r.text();
    } catch {
      status = 0; // refused, reset or timed out: a failed request like any other
    }
    const ok = status >= 200 && status < 300;
    this.#recorder.record({ group, ms: performance.now() - started, ok });
    let parsed: unknown = text;
    try { parsed = JSON.parse(text); } catch { /* not JSON: keep the text */ }
    return { status, ok, body: parsed as T };
  }
}
