import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * The client's address: the connection's, unless that is one of the trusted reverse
 * proxies (TRUSTED_PROXIES), whose X-Forwarded-For is then believed hop by hop from the
 * nearest, up to the first address that is not a trusted proxy (express's 'trust proxy').
 */
export function clientAddressResolver(trustedProxies: readonly string[]): (req: IncomingMessage) => string {
  const connection = (req: IncomingMessage) => req.socket.remoteAddress ?? 'unknown';
  if (trustedProxies.length === 0) return connection;
  const trusted = new BlockList();
  for (const entry of trustedProxies) {
    const [address = '', bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(bits), family);
  }
  const isTrusted = (address: string): boolean => {
    const family = isIP(address);
    if (family === 0) return false;
    if (family === 4) return trusted.check(address, 'ipv4');
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    return trusted.check(address, 'ipv6') || (mapped !== null && trusted.check(mapped[1]!, 'ipv4'));
  };
  return (req) => {
    let address = connection(req);
    const forwarded = req.headers['x-forwarded-for'];
    if (!forwarded) return address;
    const hops = String(forwarded).split(','); // repeated headers arrive joined
    for (let i = hops.length - 1; i >= 0 && isTrusted(address); i--) address = hops[i]!.trim();
    return address;
  };
}
