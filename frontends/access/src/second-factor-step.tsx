import { useRef, useState } from 'react';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import type { MfaMethod, MfaRequiredResponse, MfaSetupRequiredResponse, SetupMethod, TotpConfirmResponse, TotpSetupResponse } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { CodeForm, TotpEnrolment } from '@ledgerline/ui/totp-enrolment.tsx';
import { passkeysSupported } from '@ledgerline/ui/passkeys.ts';
import { postPublic } from './login.api.ts';
import { PasskeyButton } from './passkey-sign-in.tsx';
import { PasskeySetup } from './passkey-setup.tsx';

export type SecondStep = MfaRequiredResponse | MfaSetupRequiredResponse;

/**
 * After a right password, when a second factor is due: a code from the authenticator (or a
 * recovery code), or, where the firm requires one not set up yet, the setup (an authenticator
 * app, or a passkey instead). `authBase` is the sign-in form's API (`/api/{tenant}/auth`,
 * `/api/auth`, `/api/admin/auth`).
 */
export function SecondFactorStep({ authBase, step, onSignedIn, onCancel }: { authBase: string; step: SecondStep; onSignedIn(response: LoginResponse): void; onCancel(): void }) {
  return (
    <>
      {'mfaSetupRequired' in step
        ? <SetupStep authBase={authBase} challenge={step.challenge} methods={step.methods} onSignedIn={onSignedIn} />
        : <CodeStep authBase={authBase} challenge={step.challenge} methods={step.methods} onSignedIn={onSignedIn} />}
      <button type="button" className="mfa-step__switch" onClick={onCancel}>Back to sign in</button>
    </>
  );
}

const METHOD_TEXT: Record<MfaMethod, { intro: string; label: string; switchTo: string }> = {
  totp: { intro: 'Enter the 6-digit code from your authenticator app.', label: 'Authenticator code', switchTo: 'Use your authenticator app' },
  webauthn: { intro: 'Use the passkey on this device, your phone or your security key.', label: 'Passkey', switchTo: 'Use a passkey' },
  email: { intro: 'Enter the 6-digit code we e-mailed you. It works for 10 minutes.', label: 'Code from the e-mail', switchTo: 'E-mail me a code' },
  recovery: { intro: 'Enter one of your recovery codes. Each works once.', label: 'Recovery code', switchTo: 'Use a recovery code' },
};

function CodeStep({ authBase, challenge, methods: offered, onSignedIn }: { authBase: string; challenge: string; methods: MfaMethod[]; onSignedIn(response: LoginResponse): void }) {
  // A browser without WebAuthn is not offered the passkey it could not use.
  const methods = offered.filter((m) => m !== 'webauthn' || passkeysSupported());
  // An e-mailed code is sent on request only: it is never the first thing shown when another method exists.
  const [method, setMethod] = useState<MfaMethod | null>(methods.find((m) => m !== 'email') ?? null);
  const [error, setError] = useState<string | null>(null);
  const choose = async (next: MfaMethod) => {
    setError(null);
    if (next === 'email') {
      const r = await postPublic<{ message: string }>(`${authBase}/mfa/email`, { challenge });
      if (!r.ok) { setError(r.message); return; }
    }
    setMethod(next);
  };
  return (
    <div className="mfa-step">
      {method && <p>{METHOD_TEXT[method].intro}</p>}
      {method === 'webauthn' ? (
        <PasskeyButton
          optionsUrl={`${authBase}/mfa/webauthn/options`}
          verifyUrl={`${authBase}/mfa/webauthn/verify`}
          challenge={challenge}
          onSignedIn={onSignedIn}
        />
      ) : method ? (
        <CodeForm
          key={method}
          recovery={method === 'recovery'}
          label={METHOD_TEXT[method].label}
          submitLabel="Verify"
          error={error}
          onSubmit={async (code) => {
            setError(null);
            const r = await postPublic<LoginResponse>(`${authBase}/mfa/verify`, { challenge, method, code });
            if (r.ok) onSignedIn(r.response);
            else setError(r.message);
          }}
        />
      ) : error && <p role="alert" className="form-field__error">{error}</p>}
      {methods.filter((m) => m !== method).map((m) => (
        <button key={m} type="button" className="mfa-step__switch" onClick={() => void choose(m)}>{METHOD_TEXT[m].switchTo}</button>
      ))}
    </div>
  );
}

/**
 * The setup: an authenticator app (its recovery codes to keep, where the portal keeps the
 * factor), or a passkey where the portal offers one (`methods`; a Keycloak realm takes an app only).
 */
function SetupStep({ authBase, challenge, methods, onSignedIn }: { authBase: string; challenge: string; methods: SetupMethod[]; onSignedIn(response: LoginResponse): void }) {
  // The sign-in the confirmation completed waits for "I saved them" (the ref: no recovery codes go on at once, before a render).
  const signedIn = useRef<LoginResponse | null>(null);
  const [confirmed, setConfirmed] = useState(false);
  const [withPasskey, setWithPasskey] = useState(false);
  const call = async <T,>(path: string, body: object): Promise<T> => {
    const r = await postPublic<T>(`${authBase}${path}`, { challenge, ...body });
    if (!r.ok) throw new Error(r.message);
    return r.response;
  };
  return (
    <div className="mfa-step">
      <p>Your firm requires a second step at sign-in. {withPasskey ? 'Add a passkey to continue.' : 'Set up an authenticator app to continue.'}</p>
      {withPasskey ? <PasskeySetup authBase={authBase} challenge={challenge} onSignedIn={onSignedIn} /> : <TotpEnrolment
        start={() => call<TotpSetupResponse>('/mfa/totp/setup', {})}
        confirm={async (code) => {
          const { recoveryCodes, ...login } = await call<TotpConfirmResponse>('/mfa/totp/confirm', { code });
          signedIn.current = login as LoginResponse;
          setConfirmed(true);
          return recoveryCodes;
        }}
        doneLabel="Continue"
        onDone={() => { if (signedIn.current) onSignedIn(signedIn.current); }}
      />}
      {/* Until the authenticator is confirmed, a passkey can be the factor instead (a browser without WebAuthn is not offered it). */}
      {!confirmed && methods.includes('webauthn') && passkeysSupported() && (
        <button type="button" className="mfa-step__switch" onClick={() => setWithPasskey(!withPasskey)}>
          {withPasskey ? 'Use an authenticator app instead' : 'Use a passkey instead'}
        </button>
      )}
    </div>
  );
}
