import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { Client as MinioClient } from 'minio';

/** One part of a multipart upload, in the order it is sent. */
export type FormPart =
  | { field: string; value: string }
  | { file: string; content: Buffer | string; field?: string };

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  bytes: Buffer;
}

/** Raw HTTP against the gateway, keeping headers and bytes (downloads are not JSON). */
export function filesClient(gatewayUrl: string) {
  const send = async <T>(method: string, urlPath: string, token: string | null | undefined, init: { body?: BodyInit; headers?: Record<string, string> } = {}): Promise<Reply<T>> => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (token) headers.authorization = `Bearer ${token}`;
    const r = await fetch(`${gatewayUrl}${urlPath}`, { method, headers, body: init.body });
    const bytes = Buffer.from(await r.arrayBuffer());
    const json = (r.headers.get('content-type') ?? '').includes('application/json') && bytes.length ? JSON.parse(bytes.toString('utf8')) as T : (undefined as T);
    return { status: r.status, headers: r.headers, body: json, bytes };
  };
  return {
    send,
    json: <T = Record<string, unknown>>(method: string, urlPath: string, token?: string | null, body?: unknown) =>
      send<T>(method, urlPath, token, body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    upload: <T = Record<string, unknown>>(urlPath: string, token: string | null | undefined, parts: FormPart[]) => {
      const form = new FormData();
      for (const p of parts) {
        if ('file' in p) form.append(p.field ?? 'file', new Blob([new Uint8Array(Buffer.from(p.content))]), p.file);
        else form.append(p.field, p.value);
      }
      return send<T>('POST', urlPath, token, { body: form });
    },
    /** A hand-made multipart body, for malformed and oddly ordered requests. */
    rawUpload: <T = Record<string, unknown>>(urlPath: string, token: string | null | undefined, body: Buffer | string, contentType: string) =>
      send<T>('POST', urlPath, token, { body: new Uint8Array(Buffer.from(body)), headers: { 'content-type': contentType } }),
  };
}

/**
 * The object keys the portal holds for one firm (`files/<schema>/…`): on S3 when the
 * suite runs against the real servers, else in the embedded store's folder. Writes in
 * flight (the local store's tmp folder) count too: a failed upload must leave nothing.
 */
export async function storedObjectKeys(dataDir: string, schema: string): Promise<string[]> {
  if (process.env.S3_ENDPOINT) {
    const url = new URL(process.env.S3_ENDPOINT);
    const client = new MinioClient({
      endPoint: url.hostname, port: Number(url.port || (url.protocol === 'https:' ? 443 : 80)), useSSL: url.protocol === 'https:',
      accessKey: process.env.S3_ACCESS_KEY!, secretKey: process.env.S3_SECRET_KEY!,
    });
    const keys: string[] = [];
    const stream = client.listObjectsV2(process.env.S3_BUCKET ?? 'portal', `files/${schema}/`, true);
    for await (const item of stream as AsyncIterable<{ name?: string }>) if (item.name) keys.push(item.name);
    return keys.sort();
  }
  const root = path.join(dataDir, 'objects');
  const walk = async (dir: string): Promise<string[]> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    const out: string[] = [];
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) out.push(...await walk(full));
      else out.push(path.relative(path.join(root, 'data'), full));
    }
    return out;
  };
  const data = await walk(path.join(root, 'data', 'files', schema));
  const pending = await walk(path.join(root, 'tmp'));
  return [...data, ...pending.map((p) => `tmp:${p}`)].sort();
}
