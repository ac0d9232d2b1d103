/**
 * How a service pushes to browsers without holding sockets (DESIGN §7): it names a room
 * (realtime-rooms.ts), an event and a JSON payload. Delivery is best effort: a browser
 * that is not connected catches up by reading the API (the screens also poll).
 */
export interface RealtimeEmitter {
  emit(room: string, event: string, payload: unknown): void;
}
