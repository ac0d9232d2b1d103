import type http from 'node:http';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import { Server, type Socket } from 'socket.io';
import { PLATFORM_SCHEMA, quoteIdent } from '../db/tenant-schema.ts';
import type { Logger } from '../logger.ts';
import type { RealtimeEmitter } from './realtime-emitter.ts';
import { REALTIME_PATH } from './realtime-rooms.ts';

/** Where the postgres adapter parks payloads too large for NOTIFY (8,000 bytes). */
const ATTACHMENTS_TABLE = `${quoteIdent(PLATFORM_SCHEMA)}.socket_io_attachments`;

export type SocketMiddleware = (socket: Socket, next: (err?: Error) => void) => void | Promise<void>;

/**
 * A process's realtime side, created once with the other adapters and handed to every
 * service. Any service emits through `emitter`; exactly one service (the endpoint's owner)
 * calls `attach` on its HTTP server.
 * - PostgreSQL (`POSTGRES_URL`): one socket.io server per process on
 *   @socket.io/postgres-adapter (NOTIFY/LISTEN), attached or not: an emit in any process
 *   reaches the sockets of every replica that attached. (@socket.io/postgres-emitter 0.1
 *   speaks an older message format than adapter 0.5 reads: its broadcasts are dropped, so a
 *   server with no HTTP listener is the emitter.)
 * - Embedded default (PGlite, one process): the same server with in-memory rooms.
 */
export interface RealtimeHub {
  readonly kind: 'memory' | 'postgres';
  emitter: RealtimeEmitter;
  /**
   * Whether any socket of any replica is in `room` now (e.g. a user is online, so a message
   * reaches them without a notification). A replica that does not answer in time counts as
   * having none there.
   */
  isOccupied(room: string): Promise<boolean>;
  attach(server: http.Server, middleware: SocketMiddleware): Server;
  /** Shutdown's first step: refuses new sockets and closes the open ones, which would keep the HTTP server from closing. */
  closeConnections(): void;
  close(): Promise<void>;
}

/**
 * socket.io answers a refused CONNECT with an error packet and keeps the engine.io session
 * open until its ping times out: a flood of refused handshakes would each hold a session.
 * The session is closed as soon as the refusal is written (engine.io waits for its buffer).
 */
function closingOnRefusal(middleware: SocketMiddleware): SocketMiddleware {
  return (socket, next) => middleware(socket, (err) => {
    next(err);
    // After socket.io's own next tick, which writes the refusal.
    if (err) setImmediate(() => socket.conn.close());
  });
}

export async function createRealtimeHub(options: { postgresUrl?: string; logger: Logger }): Promise<RealtimeHub> {
  const { logger } = options;
  let pool: pg.Pool | null = null;
  if (options.postgresUrl) {
    // Its own small pool: the adapter holds one connection on LISTEN for as long as it runs.
    pool = new pg.Pool({ connectionString: options.postgresUrl, max: 4 });
    pool.on('error', (err) => logger.warn({ err: String(err) }, 'realtime pool connection failed'));
    await pool.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(PLATFORM_SCHEMA)};
      CREATE TABLE IF NOT EXISTS ${ATTACHMENTS_TABLE} (id bigserial UNIQUE, created_at timestamptz DEFAULT now(), payload bytea)`)
      .catch(async (err: unknown) => {
        // Two replicas starting at once may race on the catalogue; the table is there either way.
        if (!String(err).includes('already exists') && !String(err).includes('duplicate key')) { await pool!.end(); throw err; }
      });
  }
  // Websocket first: the gateway proxies the upgrade; long-polling stays as the fallback.
  const io = new Server({
    path: REALTIME_PATH, serveClient: false, transports: ['websocket', 'polling'],
    adapter: pool ? createAdapter(pool, { tableName: ATTACHMENTS_TABLE, errorHandler: (err) => logger.warn({ err: String(err) }, 'realtime adapter error') }) : undefined,
  });
  let attached = false;
  let closing = false;
  const closeConnections = () => {
    closing = true;
    io.disconnectSockets(true);
    // io.close() would also close the HTTP server, which its owner shuts down itself.
    io.engine?.close();
  };
  return {
    kind: pool ? 'postgres' : 'memory',
    emitter: { emit: (room, event, payload) => { io.to(room).emit(event, payload); } },
    async isOccupied(room) {
      try {
        return (await io.in(room).fetchSockets()).length > 0;
      } catch (err) {
        logger.warn({ err: String(err), room }, 'realtime presence query failed');
        return false;
      }
    },
    attach(server, middleware) {
      if (attached) throw new Error('The realtime endpoint has one owner per process');
      attached = true;
      io.use(closingOnRefusal((_socket, next) => (closing ? next(new Error('The server is shutting down. Please try again.')) : next())) as never);
      io.use(closingOnRefusal(middleware) as never);
      io.attach(server);
      return io;
    },
    closeConnections,
    async close() {
      closeConnections();
      await io.of('/').adapter.close?.();
      await pool?.end();
    },
  };
}
