import express from 'express';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomBytes } from 'node:crypto';

/**
 * A local stand-in for Google's OAuth consent page, token endpoint and Drive folder
 * creation (Google is not reachable from tests). It checks what Google checks: the
 * OAuth app's id and secret, a single-use code, the redirect URI the code was issued
 * for, and the bearer token on Drive calls.
 */
export interface GoogleStandIn {
  url: string;
  env: Record<string, string>;
  /** The OAuth app registered with the stand-in (what the firm's Admin would paste). */
  app: { clientId: string; clientSecret: string };
  /** Every token the stand-in handed out, so tests can prove none leaks. */
  issuedTokens: string[];
  folders: { name: string; mimeType: string }[];
  close(): Promise<void>;
}

const random = (prefix: string) => `${prefix}-${randomBytes(12).toString('hex')}`;

export async function startGoogleStandIn(): Promise<GoogleStandIn> {
  const app = { clientId: random('oauth-client'), clientSecret: random('oauth-secret') };
  const codes = new Map<string, string>(); // code → redirect_uri it was issued for
  const accessTokens = new Set<string>();
  const issuedTokens: string[] = [];
  const folders: { name: string; mimeType: string }[] = [];
  const web = express();

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
    const redirect = codes.get(b.code!);
    if (b.grant_type !== 'authorization_code' || b.client_id !== app.clientId || b.client_secret !== app.clientSecret || !redirect || redirect !== b.redirect_uri) {
      return res.status(400).json({ error: 'invalid_grant' });
    }
    codes.delete(b.code!);
    const access = random('access-token');
    const refresh = random('refresh-token');
    accessTokens.add(access);
    issuedTokens.push(access, refresh);
    res.json({ access_token: access, refresh_token: refresh, expires_in: 3599, token_type: 'Bearer', scope: 'https://www.googleapis.com/auth/drive.file' });
  });

  web.post('/drive/v3/files', express.json(), (req, res) => {
    const token = (req.header('authorization') ?? '').replace(/^Bearer /, '');
    if (!accessTokens.has(token)) return res.status(401).json({ error: { code: 401, message: 'Invalid Credentials' } });
    folders.push(req.body as { name: string; mimeType: string });
    res.json({ id: random('folder') });
  });

  const server: Server = await new Promise((resolve) => { const s = web.listen(0, '127.0.0.1', () => resolve(s)); });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    env: { GOOGLE_OAUTH_AUTH_URL: `${url}/o/oauth2/v2/auth`, GOOGLE_OAUTH_TOKEN_URL: `${url}/token`, GOOGLE_API_ROOT_URL: `${url}/` },
    app,
    issuedTokens,
    folders,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
