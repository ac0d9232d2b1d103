import { describe, expect, it } from '@jest/globals';
import { CHAT_NOT_SET_UP, hasFileChatLauncher, launchFileChat, registerFileChatLauncher, subscribeFileChatLauncher } from '@ledgerline/ui/file-chat-launcher.ts';

describe('file chat launcher', () => {
  it('launches nothing until a chat remote registers, then hands it the file', () => {
    expect(CHAT_NOT_SET_UP).toBe('AI chat is not set up');
    expect(hasFileChatLauncher()).toBe(false);
    expect(launchFileChat({ id: 1, originalName: 'a.pdf' })).toBe(false);

    const opened: number[] = [];
    let changes = 0;
    const unsubscribe = subscribeFileChatLauncher(() => { changes += 1; });
    const unregister = registerFileChatLauncher((file) => opened.push(file.id));
    expect(hasFileChatLauncher()).toBe(true);
    expect(launchFileChat({ id: 9, originalName: 'b.pdf' })).toBe(true);
    expect(opened).toEqual([9]);

    unregister();
    expect(hasFileChatLauncher()).toBe(false);
    expect(changes).toBe(2);
    unsubscribe();
  });

  it('keeps a newer launcher when an older one unregisters', () => {
    const first = registerFileChatLauncher(() => undefined);
    const second = registerFileChatLauncher(() => undefined);
    first();
    expect(hasFileChatLauncher()).toBe(true);
    second();
    expect(hasFileChatLauncher()).toBe(false);
  });
});
