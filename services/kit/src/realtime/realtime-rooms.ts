/** The one socket.io path (DESIGN §7); the gateway proxies it to the service that attaches. */
export const REALTIME_PATH = '/socket.io';

/**
 * The rooms of the one socket.io endpoint (DESIGN §7 realtime). A socket joins its user's
 * and its firm's rooms at the handshake; conversations (messaging) join theirs later. Names
 * carry the firm, so the same user id in two firms never shares a room.
 */
export const userRoom = (tenant: string, userId: number): string => `firm:${tenant}:user:${userId}`;
export const firmRoom = (tenant: string): string => `firm:${tenant}`;
export const conversationRoom = (tenant: string, conversationId: number): string => `firm:${tenant}:conversation:${conversationId}`;
