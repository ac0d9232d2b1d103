import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from 'primereact/button';
import { InputText } from 'primereact/inputtext';
import { Message } from 'primereact/message';
import { EMAIL_CODE_SENT, type LoginOutcome } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { FormField } from '@ledgerline/ui/form-field.tsx';
import { CodeForm } from '@ledgerline/ui/totp-enrolment.tsx';
import { postPublic } from './login.api.ts';

/**
 * "E-mail me a sign-in code" for a firm's Client users: their address, then the 6-digit code
 * from the mail. What follows (signed in, or a second factor the firm requires) is the login's.
 */
export function EmailSignIn({ authBase, onOutcome, onCancel }: { authBase: string; onOutcome(outcome: LoginOutcome): void; onCancel(): void }) {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const request = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setPending(true);
    const r = await postPublic<{ message: string }>(`${authBase}/email-code`, { email: email.trim() });
    setPending(false);
    if (r.ok) setSent(true);
    else setError(r.message);
  };

  return (
    <div className="mfa-step">
      {!sent ? (
        <form className="login-form" onSubmit={request} noValidate>
          {error && <Message severity="error" text={error} className="login-form__banner" />}
          <p>Clients of the firm: we e-mail you a code to sign in without a password.</p>
          <FormField label="Email" htmlFor="sign-in-email">
            <InputText id="sign-in-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="email" autoFocus />
          </FormField>
          <Button type="submit" className="login-form__submit" label="E-mail me a code" icon="pi pi-envelope" loading={pending} />
        </form>
      ) : (
        <>
          <p>{EMAIL_CODE_SENT}</p>
          <CodeForm
            label="Code from the e-mail"
            submitLabel="Sign In"
            error={error}
            onSubmit={async (code) => {
              setError(null);
              const r = await postPublic<LoginOutcome>(`${authBase}/email-code/verify`, { email: email.trim(), code });
              if (r.ok) onOutcome(r.response);
              else setError(r.message);
            }}
          />
        </>
      )}
      <button type="button" className="mfa-step__switch" onClick={onCancel}>Back to sign in</button>
    </div>
  );
}

/** The one-click link of the mail (`?signInToken=…`): used once, as soon as the page opens. */
export function useSignInLink(authBase: string, onOutcome: (outcome: LoginOutcome) => void): string | null {
  const [error, setError] = useState<string | null>(null);
  const used = useRef(false);
  useEffect(() => {
    const token = new URLSearchParams(window.location.search).get('signInToken');
    if (!token || used.current) return;
    used.current = true;
    // The token leaves the address bar (and the history) before it is spent.
    window.history.replaceState(null, '', window.location.pathname);
    void postPublic<LoginOutcome>(`${authBase}/email-code/verify`, { token }).then((r) => (r.ok ? onOutcome(r.response) : setError(r.message)));
  }, [authBase, onOutcome]);
  return error;
}
