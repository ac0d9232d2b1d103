/**
 * The per-file AI chat (spec 001 §2 "AI Chat dialog") belongs to its own remote. Screens
 * that list files offer a Chat button and call launchFileChat; the chat remote fills this
 * registry from its register(). Import it by package name (`@ledgerline/ui/file-chat-launcher.ts`)
 * so every remote shares the one registry.
 */

export interface ChatFile {
  id: number;
  originalName: string;
}

export type FileChatLauncher = (file: ChatFile) => void;

/** The tooltip of a Chat button while no chat remote has registered. */
export const CHAT_NOT_SET_UP = 'AI chat is not set up';

let launcher: FileChatLauncher | null = null;
const listeners = new Set<() => void>();

/** Installs the chat dialog opener; the returned function removes it again. */
export function registerFileChatLauncher(fn: FileChatLauncher): () => void {
  launcher = fn;
  notify();
  return () => {
    if (launcher !== fn) return;
    launcher = null;
    notify();
  };
}

export function hasFileChatLauncher(): boolean {
  return launcher !== null;
}

/** Opens the chat for a file; false when no chat remote is there to open it. */
export function launchFileChat(file: ChatFile): boolean {
  if (!launcher) return false;
  launcher(file);
  return true;
}

/** For useSyncExternalStore: a chat remote may register after a file list has rendered. */
export function subscribeFileChatLauncher(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(): void {
  for (const listener of listeners) listener();
}
