import { useEffect, useState } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import { passkeysSupported, signWithPasskey } from '@ledgerline/ui/passkeys.ts';
import { postPublic } from './login.api.ts';

/**
 * One button for a passkey ceremony at sign-in: the server's options, the browser's prompt,
 * the answer back. With a `challenge` it is the second step of a password sign-in; without,
 * a sign-in with the passkey alone. `startAtOnce`: the ceremony starts when it turns true (the
 * visitor pressed the button on the first-paint page, before the app ran).
 */
export function PasskeyButton({ optionsUrl, verifyUrl, challenge, label = 'Use a passkey', outlined = false, startAtOnce = false, onSignedIn }: {
  optionsUrl: string; verifyUrl: string; challenge?: string; label?: string; outlined?: boolean; startAtOnce?: boolean; onSignedIn(response: LoginResponse): void;
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
  useEffect(() => {
    if (startAtOnce) void run();
  }, [startAtOnce]);
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
export function PasskeySignInOption({ authBase, onSignedIn, startAtOnce = false }: { authBase: string; onSignedIn(response: LoginResponse): void; startAtOnce?: boolean }) {
  if (!passkeysSupported()) return null;
  return <PasskeyButton optionsUrl={`${authBase}/passkey-login/options`} verifyUrl={`${authBase}/passkey-login/verify`} label="Sign in with a passkey" outlined startAtOnce={startAtOnce} onSignedIn={onSignedIn} />;
}
