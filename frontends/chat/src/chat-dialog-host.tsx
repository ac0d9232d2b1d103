import { QueryClientProvider } from '@tanstack/react-query';
import { PrimeReactProvider } from 'primereact/api';
import { useSyncExternalStore } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createQueryClient } from '@ledgerline/ui/api-client.ts';
import type { ChatFile } from '@ledgerline/ui/file-chat-launcher.ts';
import { ChatDialog } from './chat-dialog.tsx';

/**
 * The dialog lives in a React root of its own (the shell's contract has routes and
 * navigation, not overlays), on the shared React, PrimeReact and ui singletons; toasts go
 * through the shared toast store, which the shell's layout shows.
 */
let root: Root | null = null;
let openFile: ChatFile | null = null;
const listeners = new Set<() => void>();
const setFile = (file: ChatFile | null) => {
  openFile = file;
  for (const l of listeners) l();
};
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => { listeners.delete(l); };
};

function ChatDialogRoot() {
  const file = useSyncExternalStore(subscribe, () => openFile);
  // Keyed by file: closing and reopening starts with no session, no messages and an empty input (spec 001 §4).
  return file ? <ChatDialog key={file.id} file={file} onClose={() => setFile(null)} /> : null;
}

export function openChatDialog(file: ChatFile): void {
  if (!root) {
    const container = document.createElement('div');
    container.id = 'chat-dialog-root';
    document.body.append(container);
    root = createRoot(container);
    root.render(
      <PrimeReactProvider>
        <QueryClientProvider client={createQueryClient()}>
          <ChatDialogRoot />
        </QueryClientProvider>
      </PrimeReactProvider>,
    );
  }
  // A different file replaces the open one; the same file reopened starts afresh.
  setFile(null);
  queueMicrotask(() => setFile(file));
}
