import { describe, expect, it } from '@jest/globals';
import { SESSION_ENDED } from '@ledgerline/contracts/session-ended.ts';
import { isSessionEndedAnswer, sessionEndedPath } from '@ledgerline/ui/session-end.ts';

describe('a session ended elsewhere', () => {
  it("is the server's 401 that says so, and no other answer", () => {
    expect(isSessionEndedAnswer(401, JSON.stringify({ message: SESSION_ENDED }))).toBe(true);
    // A wrong password or a missing token is the sign-in form's business, not a sign-out.
    expect(isSessionEndedAnswer(401, JSON.stringify({ message: 'Invalid credentials' }))).toBe(false);
    expect(isSessionEndedAnswer(401, '')).toBe(false);
    expect(isSessionEndedAnswer(403, JSON.stringify({ message: SESSION_ENDED }))).toBe(false);
  });

  it("sends the tab to its firm's sign-in page, saying why", () => {
    expect(sessionEndedPath('/acme/login')).toBe('/acme/login?signedOut=session-ended');
  });
});
