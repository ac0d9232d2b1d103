import { describe, expect, it } from '@jest/globals';
import { activeToast, dismissToast, latestToast, showToast, subscribeToasts, TOAST_DURATION_MS } from '@ledgerline/ui/toast-store.ts';

describe('toast store', () => {
  it('keeps one toast at a time for 5000 ms and tells its subscribers', () => {
    let notified = 0;
    const unsubscribe = subscribeToasts(() => notified++);
    const first = showToast({ severity: 'success', summary: 'Login Successful', detail: 'Welcome to Acme' }, 1_000);
    const second = showToast({ severity: 'error', summary: 'Error' }, 2_000);
    expect(TOAST_DURATION_MS).toBe(5000);
    expect(latestToast()).toBe(second);
    expect(activeToast(2_000 + 4_999)).toBe(second);
    expect(activeToast(2_000 + 5_000)).toBeNull();
    // Dismissing a replaced toast leaves the current one alone.
    dismissToast(first.id);
    expect(latestToast()).toBe(second);
    dismissToast(second.id);
    expect(latestToast()).toBeNull();
    expect(notified).toBe(3);
    unsubscribe();
    showToast({ severity: 'info', summary: 'Later' });
    expect(notified).toBe(3);
  });
});
