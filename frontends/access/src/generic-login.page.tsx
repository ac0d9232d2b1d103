import { useState } from 'react';
import type { LoginRequest } from '@ledgerline/contracts/auth.contracts.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { LoginForm } from './login-form.tsx';
import { LoginFrame } from './login-frame.tsx';
import { NETWORK_ERROR, requestLogin } from './login.api.ts';
import { SUPPORT_EMAIL } from './support.ts';
import { SecondFactorStep, type SecondStep } from './second-factor-step.tsx';
import { PasskeySignInOption } from './passkey-sign-in.tsx';
import { useSignIn } from './use-sign-in.ts';

/** /login (spec 000 §2): platform administrators and any firm's user by username. */
export function GenericLoginPage() {
  const signIn = useSignIn();
  const [second, setSecond] = useState<SecondStep | null>(null);

  const submit = async (credentials: LoginRequest) => {
    const outcome = await requestLogin('/api/auth/login', credentials);
    if (outcome.ok) return 'token' in outcome.response ? signIn(outcome.response, '/') : setSecond(outcome.response);
    const detail = outcome.reason === 'network' ? NETWORK_ERROR : (outcome.message ?? 'Login failed');
    showToast({ severity: 'error', summary: 'Login failed', detail });
  };

  return (
    <LoginFrame
      mark={<i className="pi pi-briefcase" />}
      title="Ledgerline"
      subtitle="Sign in to your account"
      footer={
        <>
          <div className="login-card__links">
            {/* Spec 000 §2: the link is shown but does nothing. */}
            <a href="#" onClick={(event) => event.preventDefault()}>
              Forgot password
            </a>
            <a href={`mailto:${SUPPORT_EMAIL}`}>Contact Support</a>
          </div>
          <p className="login-card__secure">
            <i className="pi pi-lock" aria-hidden="true" /> Secure Login
          </p>
        </>
      }
    >
      {second ? <SecondFactorStep authBase="/api/auth" step={second} onSignedIn={(response) => signIn(response, '/')} onCancel={() => setSecond(null)} /> : (
        <>
          <LoginForm submitLabel="Sign In" onSubmit={submit} />
          {/* No firm named: the passkey the person picks says whose it is (a firm user's or a platform administrator's). */}
          <PasskeySignInOption authBase="/api/auth" onSignedIn={(response) => signIn(response, '/')} />
        </>
      )}
    </LoginFrame>
  );
}
