// socket.io 4 spoken over k6/websockets, as the portal's browser client does with the
// websocket transport: Engine.IO `0{sid,…}` opens, `40{auth}` connects to the default
// namespace with the handshake's auth (`40{sid}` accepted, `44{message}` refused), `42[name,
// payload]` carries events, and the server's ping `2` is answered with pong `3`.
import { WebSocket } from 'k6/websockets';
import { BASE_URL } from './config.ts';

export interface SocketHandlers {
  /** The namespace accepted the handshake: the socket is in its user's and firm's rooms. */
  onConnect(socket: IoSocket): void;
  onEvent(socket: IoSocket, name: string, payload: unknown): void;
  /** The handshake was refused (`44`), with the server's message. */
  onRefused(message: string): void;
}

export interface IoSocket { close(): void }

const socketUrl = `${BASE_URL.replace(/^http/, 'ws')}/socket.io/?EIO=4&transport=websocket`;

/** Opens a socket.io connection with `auth`; the handlers run on k6's event loop until close(). */
export function connect(auth: Record<string, string>, handlers: SocketHandlers): IoSocket {
  const ws = new WebSocket(socketUrl);
  const socket: IoSocket = { close: () => ws.close() };
  ws.onmessage = (event) => {
    const packet = String(event?.data);
    if (packet === '2') ws.send('3');
    else if (packet.startsWith('0')) ws.send(`40${JSON.stringify(auth)}`);
    else if (packet.startsWith('40')) handlers.onConnect(socket);
    else if (packet.startsWith('44')) {
      handlers.onRefused((parse(packet.slice(2)) as { message?: string } | undefined)?.message ?? packet);
      ws.close();
    } else if (packet.startsWith('42')) {
      const event = parse(packet.slice(2));
      if (Array.isArray(event) && typeof event[0] === 'string') handlers.onEvent(socket, event[0], event[1]);
    }
  };
  return socket;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
