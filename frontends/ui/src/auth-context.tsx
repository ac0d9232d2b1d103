import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { AUTH_TOKEN_KEY, TOKEN_KEY } from '@ledgerline/contracts/browser-storage.ts';
import {
  clearStoredAuth,
  logoutRedirectPath,
  readCurrentTenant,
  readStoredAuth,
  readToken,
  saveStoredAuth,
  type LoginUser,
  type StoredUser,
} from './auth-storage.ts';
import { endSession } from '@ledgerline/ui/session-end.ts';

export type AuthState =
  | { status: 'loading' }
  | { status: 'authenticated'; token: string; user: StoredUser }
  | { status: 'anonymous' };

export interface AuthContextValue {
  state: AuthState;
  /** Stores the token and user of a successful login and signs the page in. */
  login(token: string, user: LoginUser): StoredUser;
  /** Clears token, user and tenant, then loads the tenant's login page (or /login). */
  logout(): void;
}

// Lives in the shared ui singleton so the shell and every remote read one auth state.
const AuthContext = createContext<AuthContextValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  // Spec 000 §4: authentication is 'loading' until the stored state has been read.
  const [state, setState] = useState<AuthState>({ status: 'loading' });

  useEffect(() => {
    const stored = readStoredAuth();
    setState(stored ? { status: 'authenticated', ...stored } : { status: 'anonymous' });
  }, []);

  // Another tab of this browser signed out (its sign-in is this tab's too): this one follows,
  // once, to the sign-in page, instead of failing call by call. A sign-out removes the token
  // (clearStoredAuth); the app never clears the whole storage, so a clear() is not taken for one.
  const signedIn = state.status === 'authenticated';
  useEffect(() => {
    if (!signedIn) return undefined;
    const follow = (event: StorageEvent) => {
      const tokenRemoved = (event.key === TOKEN_KEY || event.key === AUTH_TOKEN_KEY) && event.newValue === null;
      if (tokenRemoved && !readToken()) endSession();
    };
    window.addEventListener('storage', follow);
    return () => window.removeEventListener('storage', follow);
  }, [signedIn]);

  const login = useCallback((token: string, user: LoginUser) => {
    const stored = saveStoredAuth(token, user);
    setState({ status: 'authenticated', token, user: stored });
    return stored;
  }, []);

  const logout = useCallback(() => {
    const tenant = readCurrentTenant();
    clearStoredAuth();
    // A full page load also drops every query cached for the signed-out user.
    window.location.assign(logoutRedirectPath(tenant));
  }, []);

  const value = useMemo(() => ({ state, login, logout }), [state, login, logout]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth must be used inside the shell AuthProvider');
  return value;
}
