import { Link } from 'react-router-dom';
import { useState } from 'react';
import type { LoginRequest, LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { displayName } from '@ledgerline/ui/user-display.ts';
import { LoginForm } from './login-form.tsx';
import { LoginFrame } from './login-frame.tsx';
import { NETWORK_ERROR, requestLogin } from './login.api.ts';
import { SecondFactorStep, type SecondStep } from './second-factor-step.tsx';
import { PasskeySignInOption } from './passkey-sign-in.tsx';
import { useSignIn } from './use-sign-in.ts';

/** /admin/login (spec 000 §2): the platform administrator's own sign-in. */
export function AdminLoginPage() {
  const signIn = useSignIn();
  const [second, setSecond] = useState<SecondStep | null>(null);

  const signedIn = (response: LoginResponse) => {
    showToast({ severity: 'success', summary: 'Admin Access Granted', detail: `Welcome, ${displayName(response.user)}` });
    signIn(response, '/admin/dashboard');
  };

  const submit = async (credentials: LoginRequest) => {
    const outcome = await requestLogin('/api/admin/auth/login', credentials);
    if (!outcome.ok) {
      const detail = outcome.reason === 'network' ? NETWORK_ERROR : (outcome.message ?? 'Invalid admin credentials');
      showToast({ severity: 'error', summary: 'Admin Login Failed', detail });
      return;
    }
    if ('token' in outcome.response) signedIn(outcome.response);
    else setSecond(outcome.response);
  };

  return (
    <LoginFrame
      mark={<i className="pi pi-shield" />}
      title="Admin Portal"
      subtitle="Platform administrator sign-in"
      footer={
        <Link to="/login" className="login-card__back">
          <i className="pi pi-arrow-left" aria-hidden="true" /> Back to main login
        </Link>
      }
    >
      {second ? <SecondFactorStep authBase="/api/admin/auth" step={second} onSignedIn={signedIn} onCancel={() => setSecond(null)} /> : (
        <>
          <LoginForm submitLabel="Sign In as Administrator" onSubmit={submit} />
          <PasskeySignInOption authBase="/api/admin/auth" onSignedIn={signedIn} />
        </>
      )}
    </LoginFrame>
  );
}
