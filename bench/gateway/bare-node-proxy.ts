// The floor under the gateway benchmark: Node's own HTTP server forwarding every request
// to one upstream through the gateway's upstream proxy (undici keep-alive pool, both bodies
// streamed), with none of the gateway's checks (no token, tenant, rate limit, body limit or
// security headers). Run as a child process by gateway.bench.ts:
//   node bench/gateway/bare-node-proxy.ts <upstream url> <port>
// The gateway's distance from this is what its protections cost; this one's distance from
// nginx is what Node's HTTP server and sockets cost.
import http from 'node:http';
import { createLogger } from '@ledgerline/kit/logger.ts';
import { createUpstreamProxy } from '@ledgerline/gateway/upstream-proxy.ts';

const [upstreamUrl, port] = process.argv.slice(2);
if (!upstreamUrl || !port) throw new Error('usage: bare-node-proxy.ts <upstream url> <port>');
const target = { service: 'upstream', url: upstreamUrl };
const upstream = createUpstreamProxy({ maxSocketsPerUpstream: 256, logger: createLogger('bare-node-proxy', 'warn') });
const server = http.createServer((req, res) => upstream.forward(target, req, res, req.url ?? '/'));
server.listen(Number(port), '127.0.0.1', () => console.log('listening'));
process.once('SIGTERM', () => {
  server.close();
  void upstream.close();
});
