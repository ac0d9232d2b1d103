import { startTransition, useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { saveCurrentTenant } from '@ledgerline/ui/auth-storage.ts';

/**
 * Stores a successful login (token, user and the firm as currentTenant) and moves on. The
 * auth change and the navigation render together: rendered apart, the sign-in route would
 * briefly see a signed-in user and its guest guard would send them to / instead.
 */
export function useSignIn(): (response: LoginResponse, to: string) => void {
  const { login } = useAuth();
  const navigate = useNavigate();
  return useCallback(
    (response, to) => {
      if (response.tenant) saveCurrentTenant(response.tenant);
      startTransition(() => {
        login(response.token, { ...response.user });
        navigate(to);
      });
    },
    [login, navigate],
  );
}
