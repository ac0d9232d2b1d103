import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';

/**
 * A local stand-in for Google's OAuth consent page, token endpoint and the Drive calls
 * the portal makes (Google is not reachable from tests): folder creation, uploads
 * (multipart and resumable), downloads (`alt=media`, with byte ranges) and deletion. It
 * checks what Google checks: the OAuth app's id and secret, a single-use code, the
 * redirect URI the code was issued for, refresh tokens it issued, the bearer token on
 * Drive calls, and that an upload's parent is a folder it created.
 */
export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  parents: string[];
  data: Buffer;
}

export interface GoogleStandIn {
  url: string;
  env: Record<string, string>;
  /** The OAuth app registered with the stand-in (what the firm's Admin would paste). */
  app: { clientId: string; clientSecret: string };
  /** Every token the stand-in handed out, so tests can prove none leaks. */
  issuedTokens: string[];
  folders: { name: string; mimeType: string }[];
  /** Uploaded files by id. */
  driveFiles: Map<string, DriveFile>;
  /** How each upload arrived, in order: 'multipart' or 'resumable' (with its chunk count). */
  uploads: { type: 'multipart' | 'resumable'; fileId: string; chunks: number }[];
  /** Access tokens handed out for a refresh token (grant_type=refresh_token). */
  refreshes: number;
  /** Makes every Drive call answer 401 until switched back (a revoked grant). */
  setRevoked(revoked: boolean): void;
  /** Makes every file download answer 503 until switched back (Drive briefly down); counts the refused ones. */
  setDownloadsUnavailable(unavailable: boolean): void;
  readonly refusedDownloads: number;
  /** Lifetime of the access tokens handed out from now on (default 3599 s). */
  setAccessTokenTtl(seconds: number): void;
  close(): Promise<void>;
}

const random = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

interface ResumableSession { name: string; mimeType: string; parents: string[]; chunks: Buffer[]; received: number; chunkCount: number }

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  const app = { clientId: random('oauth-client'), clientSecret: random('oauth-secret') };
  const codes = new Map<string, string>(); // code → redirect_uri it was issued for
  const accessTokens = new Set<string>();
  const refreshTokens = new Set<string>();
  const issuedTokens: string[] = [];
  const folders: { name: string; mimeType: string }[] = [];
  const folderIds = new Set<string>();
  const driveFiles = new Map<string, DriveFile>();
  const uploads: GoogleStandIn['uploads'] = [];
  const sessions = new Map<string, ResumableSession>();
  let refreshes = 0;
  let revoked = false;
  let accessTokenTtl = 3599;
  let downloadsUnavailable = false;
  let refusedDownloads = 0;
  const web = express();

  const authorised = (req: express.Request, res: express.Response): boolean => {
    const token = (req.header('authorization') ?? '').replace(/^Bearer /, '');
    if (revoked || !accessTokens.has(token)) {
      res.status(401).json({ error: { code: 401, message: 'Invalid Credentials' } });
      return false;
    }
    return true;
  };
  const badParent = (parents: unknown): boolean => !Array.isArray(parents) || parents.length === 0 || !parents.every((p) => folderIds.has(String(p)));
  const store = (meta: { name: string; mimeType: string; parents: string[] }, data: Buffer): DriveFile => {
    const file: DriveFile = { id: random('drive-file'), ...meta, data };
    driveFiles.set(file.id, file);
    return file;
  };
  const resource = (f: DriveFile) => ({ kind: 'drive#file', id: f.id, name: f.name, mimeType: f.mimeType, size: String(f.data.length) });

  // The consent page: the user agrees at once and is sent back with a code.
  web.get('/o/oauth2/v2/auth', (req, res) => {
    const q = req.query as Record<string, string>;
    if (q.client_id !== app.clientId) return res.status(400).send('invalid_client');
    const code = random('code');
    codes.set(code, q.redirect_uri!);
    const back = new URL(q.redirect_uri!);
    back.searchParams.set('code', code);
    back.searchParams.set('state', q.state!);
    res.redirect(302, back.href);
  });

  web.post('/token', express.urlencoded({ extended: false }), (req, res) => {
    const b = req.body as Record<string, string>;
    if (b.client_id !== app.clientId || b.client_secret !== app.clientSecret) return res.status(401).json({ error: 'invalid_client' });
    const access = random('access-token');
    if (b.grant_type === 'refresh_token') {
      if (revoked || !refreshTokens.has(b.refresh_token!)) return res.status(400).json({ error: 'invalid_grant' });
      refreshes++;
      accessTokens.add(access);
      issuedTokens.push(access);
      return res.json({ access_token: access, expires_in: accessTokenTtl, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/drive.file' });
    }
    const redirect = codes.get(b.code!);
    if (b.grant_type !== 'authorization_code' || !redirect || redirect !== b.redirect_uri) {
      return res.status(400).json({ error: 'invalid_grant' });
    }
    codes.delete(b.code!);
    const refresh = random('refresh-token');
    accessTokens.add(access);
    refreshTokens.add(refresh);
    issuedTokens.push(access, refresh);
    res.json({ access_token: access, refresh_token: refresh, expires_in: accessTokenTtl, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/drive.file' });
  });

  web.post('/drive/v3/files', express.json(), (req, res) => {
    if (!authorised(req, res)) return;
    folders.push(req.body as { name: string; mimeType: string });
    const id = random('folder');
    folderIds.add(id);
    res.json({ id });
  });

  // Multipart upload: a JSON metadata part, then the media part (multipart/related).
  web.post('/upload/drive/v3/files', express.raw({ type: () => true, limit: '64mb' }), (req, res) => {
    if (!authorised(req, res)) return;
    const type = req.query.uploadType;
    if (type === 'resumable') {
      const meta = JSON.parse((req.body as Buffer).toString('utf8') || '{}') as { name?: string; mimeType?: string; parents?: string[] };
      if (badParent(meta.parents)) return res.status(404).json({ error: { code: 404, message: 'File not found: parent' } });
      const uploadId = random('upload');
      sessions.set(uploadId, { name: meta.name ?? 'Untitled', mimeType: meta.mimeType ?? req.header('x-upload-content-type') ?? 'application/octet-stream', parents: meta.parents!, chunks: [], received: 0, chunkCount: 0 });
      res.setHeader('Location', `${url}/upload/drive/v3/files?uploadType=resumable&upload_id=${uploadId}`);
      return res.status(200).end();
    }
    if (type !== 'multipart') return res.status(400).json({ error: { code: 400, message: `uploadType ${String(type)} not supported by the stand-in` } });
    const boundary = /boundary=([^;]+)/.exec(req.header('content-type') ?? '')?.[1];
    if (!boundary) return res.status(400).json({ error: { code: 400, message: 'no boundary' } });
    const parts = splitMultipart(req.body as Buffer, boundary);
    if (parts.length !== 2) return res.status(400).json({ error: { code: 400, message: `expected 2 parts, got ${parts.length}` } });
    const meta = JSON.parse(parts[0]!.body.toString('utf8')) as { name: string; parents: string[] };
    if (badParent(meta.parents)) return res.status(404).json({ error: { code: 404, message: 'File not found: parent' } });
    const file = store({ name: meta.name, parents: meta.parents, mimeType: parts[1]!.contentType }, parts[1]!.body);
    uploads.push({ type: 'multipart', fileId: file.id, chunks: 1 });
    res.json(resource(file));
  });

  // Resumable upload chunks: `Content-Range: bytes a-b/*` until the last, `bytes a-b/total`.
  web.put('/upload/drive/v3/files', express.raw({ type: () => true, limit: '64mb' }), (req, res) => {
    const session = sessions.get(String(req.query.upload_id));
    if (!session) return res.status(404).json({ error: { code: 404, message: 'upload session not found' } });
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$|^bytes \*\/(\d+|\*)$/.exec(req.header('content-range') ?? '');
    if (!range) return res.status(400).json({ error: { code: 400, message: 'bad Content-Range' } });
    const body = req.body as Buffer;
    const total = range[3] ?? range[4];
    if (range[1] !== undefined) {
      const start = Number(range[1]);
      const end = Number(range[2]);
      if (start !== session.received || end - start + 1 !== body.length) return res.status(400).json({ error: { code: 400, message: 'chunk out of order' } });
      const last = total !== '*';
      // Google: every chunk but the last is a multiple of 256 KiB.
      if (!last && body.length % (256 * 1024) !== 0) return res.status(400).json({ error: { code: 400, message: 'chunk size not a multiple of 256 KiB' } });
      session.chunks.push(Buffer.from(body));
      session.received += body.length;
      session.chunkCount++;
    }
    if (total === '*' || Number(total) !== session.received) {
      if (session.received > 0) res.setHeader('Range', `bytes=0-${session.received - 1}`);
      return res.status(308).end();
    }
    sessions.delete(String(req.query.upload_id));
    const file = store({ name: session.name, mimeType: session.mimeType, parents: session.parents }, Buffer.concat(session.chunks));
    uploads.push({ type: 'resumable', fileId: file.id, chunks: session.chunkCount });
    res.json(resource(file));
  });

  web.get('/drive/v3/files/:id', (req, res) => {
    if (!authorised(req, res)) return;
    const file = driveFiles.get(req.params.id);
    if (!file) return res.status(404).json({ error: { code: 404, message: `File not found: ${req.params.id}.` } });
    if (req.query.alt !== 'media') return res.json(resource(file));
    if (downloadsUnavailable) {
      refusedDownloads++;
      return res.status(503).json({ error: { code: 503, message: 'The service is currently unavailable.' } });
    }
    const range = /^bytes=(\d+)-(\d*)$/.exec(req.header('range') ?? '');
    res.setHeader('Content-Type', file.mimeType);
    if (!range) return res.send(file.data);
    const start = Number(range[1]);
    const end = range[2] ? Math.min(Number(range[2]), file.data.length - 1) : file.data.length - 1;
    if (start >= file.data.length) return res.status(416).end();
    res.status(206).setHeader('Content-Range', `bytes ${start}-${end}/${file.data.length}`);
    res.send(file.data.subarray(start, end + 1));
  });

  web.delete('/drive/v3/files/:id', (req, res) => {
    if (!authorised(req, res)) return;
    if (!driveFiles.delete(req.params.id)) return res.status(404).json({ error: { code: 404, message: `File not found: ${req.params.id}.` } });
    res.status(204).end();
  });

  const server: Server = await new Promise((resolve) => { const s = web.listen(0, '127.0.0.1', () => resolve(s)); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { GOOGLE_OAUTH_AUTH_URL: `${url}/o/oauth2/v2/auth`, GOOGLE_OAUTH_TOKEN_URL: `${url}/token`, GOOGLE_API_ROOT_URL: `${url}/` },
    app,
    issuedTokens,
    folders,
    driveFiles,
    uploads,
    get refreshes() { return refreshes; },
    setRevoked: (value) => { revoked = value; },
    setAccessTokenTtl: (seconds) => { accessTokenTtl = seconds; },
    setDownloadsUnavailable: (value) => { downloadsUnavailable = value; },
    get refusedDownloads() { return refusedDownloads; },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

/** The parts of a multipart/related body: each part's content type and bytes. */
function splitMultipart(body: Buffer, boundary: string): { contentType: string; body: Buffer }[] {
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { contentType: string; body: Buffer }[] = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.subarray(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) break;
    const raw = body.subarray(start, next);
    const headerEnd = raw.indexOf('\r\n\r\n');
    const headers = raw.subarray(0, headerEnd).toString('utf8');
    let content = raw.subarray(headerEnd + 4);
    if (content.subarray(-2).toString() === '\r\n') content = content.subarray(0, -2);
    parts.push({ contentType: /content-type:\s*([^\r\n]+)/i.exec(headers)?.[1]?.trim() ?? 'application/octet-stream', body: Buffer.from(content) });
    at = next;
  }
  return parts;
}
