import { createServer, type AddressInfo } from 'node:net';

/**
 * A port nothing listens on right now, for a portal whose public URL must be known before
 * it starts (OAuth redirects, the origin passkeys are bound to).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
