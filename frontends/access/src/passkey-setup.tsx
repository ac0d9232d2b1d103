import { useState } from 'react';
import { Button } from 'primereact/button';
import { Message } from 'primereact/message';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import type { LoginResponse } from '@ledgerline/contracts/auth.contracts.ts';
import type { Passkey } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import { createPasskey } from '@ledgerline/ui/passkeys.ts';
import { TextFormField } from '@ledgerline/ui/text-form-field.tsx';
import { postPublic } from './login.api.ts';

/**
 * The setup step with a passkey instead of an authenticator app: the login's setup challenge
 * starts the registration, and the added passkey completes the sign-in.
 */
export function PasskeySetup({ authBase, challenge, onSignedIn }: { authBase: string; challenge: string; onSignedIn(response: LoginResponse): void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const add = async () => {
    setError(null);
    setPending(true);
    try {
      const options = await postPublic<PublicKeyCredentialCreationOptionsJSON>(`${authBase}/passkeys/options`, { challenge });
      if (!options.ok) throw new Error(options.message);
      const response = await createPasskey(options.response);
      // With the setup challenge the answer always carries the sign-in.
      const added = await postPublic<Passkey & LoginResponse>(`${authBase}/passkeys`, { challenge, name: name.trim() || 'Passkey', response });
      if (!added.ok) throw new Error(added.message);
      const { token, user, tenant } = added.response;
      onSignedIn({ token, user, tenant });
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setPending(false);
    }
  };
  return (
    <form className="mfa-step__passkey-form" onSubmit={(e) => { e.preventDefault(); void add(); }}>
      <p>A passkey is this device's screen lock, your phone or a security key. Your next sign-ins ask for it.</p>
      {error && <Message severity="error" text={error} className="login-form__banner" />}
      <TextFormField id="setup-passkey-name" label="Name of the passkey" value={name} onChange={setName} placeholder="e.g. Work laptop" />
      <Button type="submit" label="Add the passkey and continue" icon="pi pi-key" loading={pending} />
    </form>
  );
}
