import { useSyncExternalStore } from 'react';
import { Button } from 'primereact/button';
// By package name: the chat remote fills the one shared registry.
import { CHAT_NOT_SET_UP, hasFileChatLauncher, launchFileChat, subscribeFileChatLauncher, type ChatFile } from '@ledgerline/ui/file-chat-launcher.ts';

/** Opens the AI chat about a file; disabled, with a tooltip saying why, while no chat remote is there. */
export function ChatButton({ file }: { file: ChatFile }) {
  const available = useSyncExternalStore(subscribeFileChatLauncher, hasFileChatLauncher, hasFileChatLauncher);
  return (
    <Button
      icon="pi pi-comments"
      rounded
      text
      severity="help"
      aria-label={`Chat about ${file.originalName}`}
      tooltip={available ? 'Chat' : CHAT_NOT_SET_UP}
      tooltipOptions={{ position: 'top', showOnDisabled: true }}
      disabled={!available}
      onClick={() => launchFileChat(file)}
    />
  );
}
