import { describe, expect, it } from '@jest/globals';
import type { ShellNavItem, ShellRoute } from '@ledgerline/ui/shell-contract.ts';
import { hasFileChatLauncher } from '@ledgerline/ui/file-chat-launcher.ts';
import register from '../src/register.tsx';
import { sendableMessage, sendsOnKey } from '../src/chat-keys.ts';

describe('chat remote', () => {
  it('fills the files tables\' Chat button and adds the prompt templates page, leaving the spec\'s navigation alone', () => {
    const routes: ShellRoute[] = [];
    const navItems: ShellNavItem[] = [];
    expect(hasFileChatLauncher()).toBe(false);
    register({ addRoutes: (added) => routes.push(...added), addNavItems: (added) => navItems.push(...added) });
    expect(hasFileChatLauncher()).toBe(true);
    expect(routes.map(({ path, tenantScoped }) => ({ path, tenantScoped }))).toEqual([{ path: '/prompt-templates', tenantScoped: true }]);
    expect(navItems).toEqual([]);
  });

  it('sends on Enter, breaks the line on Shift+Enter or while composing, and only trimmed non-empty text', () => {
    expect(sendsOnKey({ key: 'Enter', shiftKey: false })).toBe(true);
    expect(sendsOnKey({ key: 'Enter', shiftKey: true })).toBe(false);
    expect(sendsOnKey({ key: 'Enter', shiftKey: false, isComposing: true })).toBe(false);
    expect(sendsOnKey({ key: 'a', shiftKey: false })).toBe(false);
    expect(sendableMessage('  hi \n')).toBe('hi');
    expect(sendableMessage(' \n\t ')).toBeNull();
  });
});
