import { registerFileChatLauncher } from '@ledgerline/ui/file-chat-launcher.ts';
import { lazyPage } from '@ledgerline/ui/lazy-page.tsx';
import type { RegisterRemote } from '@ledgerline/ui/shell-contract.ts';

const styles = () => import('./chat.css');

/**
 * Exposed as './register': the AI Chat dialog behind every files table's Chat button
 * (spec 001 §2), and the firm's prompt templates page. The side navigation stays the
 * spec's: Admins reach the page from the dialog's Quick Prompts ('Manage templates').
 */
const register: RegisterRemote = (shell) => {
  // The dialog's code and styles load on the first Chat click, not at boot.
  registerFileChatLauncher((file) => {
    void Promise.all([import('./chat-dialog-host.tsx'), import('@ledgerline/ui/components.css'), styles()])
      .then(([host]) => host.openChatDialog(file));
  });
  shell.addRoutes([
    { path: '/prompt-templates', element: lazyPage(() => import('./prompt-templates.page.tsx'), 'PromptTemplatesPage', styles), tenantScoped: true },
  ]);
};

export default register;
