import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { handOverSetupResult } from './google-drive-channel.ts';
import { readSetupResult, setupResultToast, withoutSetupResult } from './google-drive-result.ts';

/**
 * The page the OAuth callback returns to (/{tenant}/clients?google-drive-setup=…). In the
 * consent popup it hands the result to the page that opened it and closes; opened any other
 * way (a blocked popup ran the flow in this window) it shows the result itself.
 */
export function useSetupResultReturn(): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const result = readSetupResult(location.search);
    if (!result) return;
    void navigate(withoutSetupResult(new URL(window.location.href)), { replace: true });
    void handOverSetupResult(result).then((taken) => {
      if (taken) window.close();
      else showToast(setupResultToast(result));
    });
  }, [location.search, navigate]);
}
