import { useState } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import { passkeysSupported, signWithPasskey } from '@ledgerline/ui/passkeys.ts';
import { postPublic } from './login.api.ts';

/**
 * One button for a passkey ceremony at sign-in: the server's options, the browser's prompt,
 * the answer back. With a `challenge` it is the second step of a password sign-in; without,
 * a sign-in with the passkey alone.
 */
export function PasskeyButton({ optionsUrl, verifyUrl, challenge, label = 'Use a passkey', outlined = false, onSignedIn }: {
  optionsUrl: string; verifyUrl: string; challenge?: string; label?: string; outlined?: boolean; onSignedIn(response: LoginResponse): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const run = async () => {
    setError(null);
    setPending(true);
    try {
      const withChallenge = challenge ? { challenge } : {};
      const options = await postPublic<PublicKeyCredentialRequestOptionsJSON>(optionsUrl, withChallenge);
      if (!options.ok) throw new Error(options.message);
      const response = await signWithPasskey(options.response);
      const signedIn = await postPublic<LoginResponse>(verifyUrl, { ...withChallenge, response });
      if (!signedIn.ok) throw new Error(signedIn.message);
      onSignedIn(signedIn.response);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <div className="passkey-sign-in">
      {error && <Message severity="error" text={error} className="login-form__banner" />}
      <Button type="button" className="login-form__submit" label={label} icon="pi pi-key" outlined={outlined} loading={pending} onClick={() => void run()} />
    </div>
  );
}

/**
 * "Sign in with a passkey" under a sign-in form (`authBase`: the firm's, /api/auth or
 * /api/admin/auth), where the browser can use passkeys at all.
 */
export function PasskeySignInOption({ authBase, onSignedIn }: { authBase: string; onSignedIn(response: LoginResponse): void }) {
  if (!passkeysSupported()) return null;
  return <PasskeyButton optionsUrl={`${authBase}/passkey-login/options`} verifyUrl={`${authBase}/passkey-login/verify`} label="Sign in with a passkey" outlined onSignedIn={onSignedIn} />;
}
