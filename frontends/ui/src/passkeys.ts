import {
  browserSupportsWebAuthn, startAuthentication, startRegistration, WebAuthnError,
  type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';

/** Whether this browser can use passkeys at all (the buttons are not offered otherwise). */
export const passkeysSupported = (): boolean => browserSupportsWebAuthn();

/**
 * The browser's part of a passkey ceremony (@simplewebauthn/browser): `options` come from the
 * server's `.../options` call, the answer goes back to its pair. Both throw an Error whose
 * message a person can act on.
 */
export async function createPasskey(options: PublicKeyCredentialCreationOptionsJSON): Promise<object> {
  try {
    return await startRegistration({ optionsJSON: options });
  } catch (err) {
    throw new Error(passkeyFailure(err, 'This device has a passkey for this account already.'));
  }
}

export async function signWithPasskey(options: PublicKeyCredentialRequestOptionsJSON): Promise<object> {
  try {
    return await startAuthentication({ optionsJSON: options });
  } catch (err) {
    throw new Error(passkeyFailure(err, 'No passkey on this device was accepted.'));
  }
}

function passkeyFailure(err: unknown, alreadyRegistered: string): string {
  const name = err instanceof WebAuthnError ? (err.cause as Error | undefined)?.name ?? err.name : (err as Error | undefined)?.name;
  if (name === 'NotAllowedError' || name === 'AbortError') return 'The passkey prompt was closed or timed out. Please try again.';
  if (name === 'InvalidStateError') return alreadyRegistered;
  return 'This browser could not use a passkey here.';
}
