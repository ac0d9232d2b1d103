import { useCallback, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import { useNavigate, useParams } from 'react-router-dom';
import type { LoginRequest, LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import { firstPaintFirm, readFirstPaintSignIn, type FirstPaintChoice } from '@ledgerline/ui/first-paint.ts';
import { showToast } from '@ledgerline/ui/toast-store.ts';
import { initials } from '@ledgerline/contracts/initials.ts';
import { LoginForm } from './login-form.tsx';
import { LoginFrame } from './login-frame.tsx';
import { fetchTenantInfo, NETWORK_ERROR, requestLogin, type TenantInfo } from './login.api.ts';
import type { LoginOutcome as LoginAnswer } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { EmailSignIn, useSignInLink } from './email-sign-in.tsx';
import { SecondFactorStep, type SecondStep } from './second-factor-step.tsx';
import { PasskeySignInOption } from './passkey-sign-in.tsx';
import { useSignIn } from './use-sign-in.ts';

/** The firm's facts do not change while someone signs in. */
const FIRM_INFO_STALE_MS = 5 * 60_000;

/** /{tenant}/login (spec 000 §2): the firm's own, branded sign-in. */
export function TenantLoginPage() {
  const shortName = useParams().tenant ?? '';
  // The gateway's first HTML carries the firm it was written for: no second ask, no 'Loading...'.
  const info = useQuery({
    queryKey: ['tenant-info', shortName],
    queryFn: ({ signal }) => fetchTenantInfo(shortName, signal),
    initialData: () => firstPaintFirm(shortName) as TenantInfo | undefined,
    staleTime: FIRM_INFO_STALE_MS,
  });
  if (info.isPending) {
    return (
      <div className="page-message" role="status">
        Loading...
      </div>
    );
  }
  if (info.isError) {
    return (
      <LoginFrame mark={<i className="pi pi-exclamation-triangle" />} title="Sign in" subtitle={shortName}>
        <Message severity="error" text={NETWORK_ERROR} className="login-form__banner" />
        <Button label="Try Again" icon="pi pi-refresh" className="login-form__submit" onClick={() => void info.refetch()} />
      </LoginFrame>
    );
  }
  return info.data ? <TenantLoginForm tenant={info.data} /> : <TenantNotFound />;
}

function TenantLoginForm({ tenant }: { tenant: TenantInfo }) {
  const signIn = useSignIn();
  // Read before this form's first render replaces it (LoginForm takes it over).
  const [firstPaint] = useState(readFirstPaintSignIn);
  const [error, setError] = useState<string | null>(null);
  const [second, setSecond] = useState<SecondStep | null>(null);
  const [byEmail, setByEmail] = useState(false);
  const [passkeyAtOnce, setPasskeyAtOnce] = useState(false);
  const firstPaintChoice = useCallback((choice: FirstPaintChoice) => (choice === 'email' ? setByEmail(true) : setPasskeyAtOnce(true)), []);
  const authBase = `/api/${encodeURIComponent(tenant.shortName)}/auth`;

  const signedIn = useCallback((response: LoginResponse) => {
    showToast({ severity: 'success', summary: 'Login Successful', detail: `Welcome to ${tenant.name}` });
    signIn({ ...response, tenant: response.tenant ?? tenant }, `/${tenant.shortName}/dashboard`);
  }, [signIn, tenant]);
  const answered = useCallback((answer: LoginAnswer) => {
    setByEmail(false);
    if ('token' in answer) signedIn(answer);
    else setSecond(answer);
  }, [signedIn]);
  const linkError = useSignInLink(authBase, answered);

  const submit = async (credentials: LoginRequest) => {
    setError(null);
    const outcome = await requestLogin(`${authBase}/login`, credentials);
    if (!outcome.ok) {
      setError(outcome.reason === 'network' ? NETWORK_ERROR : (outcome.message ?? 'Login failed'));
      return;
    }
    answered(outcome.response);
  };

  return (
    <LoginFrame mark={<span className="login-card__initials">{initials(tenant.name)}</span>} title={tenant.name} subtitle="Sign in to your firm's portal">
      {second ? (
        <SecondFactorStep authBase={authBase} step={second} onSignedIn={signedIn} onCancel={() => setSecond(null)} />
      ) : byEmail ? (
        <EmailSignIn authBase={authBase} onOutcome={answered} onCancel={() => setByEmail(false)} />
      ) : (
        <>
          <LoginForm
            submitLabel="Sign In"
            onSubmit={submit}
            firstPaint={firstPaint}
            onFirstPaintChoice={firstPaintChoice}
            banner={(error ?? linkError) && <Message severity="error" text={(error ?? linkError)!} className="login-form__banner" />}
          />
          {tenant.passkeySignIn && <PasskeySignInOption authBase={authBase} onSignedIn={signedIn} startAtOnce={passkeyAtOnce} />}
          {tenant.clientEmailSignIn && (
            <button type="button" className="mfa-step__switch" onClick={() => setByEmail(true)}>E-mail me a sign-in code</button>
          )}
        </>
      )}
    </LoginFrame>
  );
}

function TenantNotFound() {
  const navigate = useNavigate();
  return (
    <LoginFrame
      mark={<i className="pi pi-exclamation-circle" />}
      title="Tenant Not Found"
      subtitle="This firm's portal does not exist or is not active."
    >
      <Button label="Go to Main Site" icon="pi pi-home" className="login-form__submit" onClick={() => navigate('/')} />
    </LoginFrame>
  );
}
