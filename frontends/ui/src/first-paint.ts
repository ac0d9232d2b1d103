/*
 * The firm's sign-in page the gateway writes into its first HTML (gateway/src/sign-in-page.ts):
 * shown before any script, in front of the app's root, which stays hidden while it is there.
 * The sign-in form takes it over: it starts from what was typed, removes this copy in the same
 * frame it shows its own, puts the cursor back and sends a form submitted meanwhile (or goes on
 * to the passkey or the e-mailed code, when one of those was pressed instead). The shell
 * removes it when a page other than the sign-in shows instead (a signed-in visitor's redirect,
 * an error).
 *
 * The home's first screen (gateway/src/home-page.ts, for a signed-in visitor at / or
 * /{tenant}/dashboard) lies over the app instead, which renders beneath it: the shell removes
 * it once the page's content is in (or a not-found page or an error shows instead).
 */

const STAND_IN_ID = 'first-paint';
const FIRM_JSON_ID = 'first-paint-firm';
const HOME_STAND_IN_ID = 'first-paint-home';

/** What the visitor did on the first-paint form before the app took it over. */
export interface FirstPaintSignIn {
  username: string;
  password: string;
  /** The field the cursor was in. */
  focused: 'username' | 'password' | null;
  /** Sign In was pressed (the gateway's script held the form). */
  submitted: boolean;
  /** 'Sign in with a passkey' or 'E-mail me a sign-in code' was pressed instead (the script kept which). */
  chosen: FirstPaintChoice | null;
}

const CHOICES = ['passkey', 'email'] as const;
export type FirstPaintChoice = (typeof CHOICES)[number];

const input = (name: string) => document.getElementById(`first-paint-${name}`) as HTMLInputElement | null;

/** The first-paint form's state, or null when the page has none (any other page, or once taken over). Reads only. */
export function readFirstPaintSignIn(): FirstPaintSignIn | null {
  const username = input('username');
  const password = input('password');
  if (!username || !password) return null;
  const focused = document.activeElement === password ? 'password' : document.activeElement === username ? 'username' : null;
  const chosen = document.getElementById(STAND_IN_ID)?.getAttribute('data-chosen');
  return {
    username: username.value, password: password.value, focused,
    submitted: document.getElementById('first-paint-form')?.hasAttribute('data-submitted') === true,
    chosen: CHOICES.find((choice) => choice === chosen) ?? null,
  };
}

/** Removes the first-paint page, showing the app beneath it; nothing when there is none. */
export function removeFirstPaint(): void {
  document.getElementById(STAND_IN_ID)?.remove();
}

/** Removes the home's first screen, uncovering the app; nothing when there is none. */
export function removeHomeFirstPaint(): void {
  document.getElementById(HOME_STAND_IN_ID)?.remove();
}

/** Removes whichever first-paint copy the page has: for a screen the copies cannot stand in for (an error, a page not found). */
export function removeEveryFirstPaint(): void {
  removeFirstPaint();
  removeHomeFirstPaint();
}

/** The firm the first-paint page was written for (its /api/{tenant}/info answer), when it is `shortName`. */
export function firstPaintFirm(shortName: string): unknown {
  const text = document.getElementById(FIRM_JSON_ID)?.textContent;
  if (!text) return undefined;
  try {
    const firm = JSON.parse(text) as { shortName?: unknown } | null;
    return firm?.shortName === shortName ? firm : undefined;
  } catch {
    return undefined;
  }
}
