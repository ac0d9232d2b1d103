import { createServer, connect as tcpConnect, type AddressInfo, type Socket } from 'node:net';

export interface BrokerProxy {
  /** The broker's URL through the proxy. */
  url: string;
  /** Drops every connection and refuses new ones, as a broker restarting does. */
  cut(): void;
  /** Lets connections through again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP hop in front of a broker whose cut drops every connection and refuses new ones until
 * restored: an outage as the clients see it, without stopping a broker other suites share.
 */
export async function brokerProxy(target: string): Promise<BrokerProxy> {
  const upstream = new URL(target);
  const sockets = new Set<Socket>();
  let up = true;
  const server = createServer((client) => {
    if (!up) return void client.destroy();
    const broker = tcpConnect(Number(upstream.port || 5672), upstream.hostname);
    for (const [socket, peer] of [[client, broker], [broker, client]] as const) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        peer.destroy();
      });
      socket.pipe(peer);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  const cut = () => {
    up = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: url.toString(),
    cut,
    restore: () => void (up = true),
    close: async () => {
      cut();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
