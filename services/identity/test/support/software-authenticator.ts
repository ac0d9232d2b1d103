import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON,
} from '@simplewebauthn/server';

/** Authenticator data flags (WebAuthn §6.1). */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED_CREDENTIAL = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  signCount: number;
}

const b64url = (b: Uint8Array): string => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string): Buffer => createHash('sha256').update(b).digest();
const uint32 = (n: number): Buffer => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };

/**
 * A platform authenticator in software (ES256, "none" attestation, discoverable
 * credentials), as a browser would drive one: it answers @simplewebauthn's options with the
 * JSON the browser library posts. @simplewebauthn ships no test authenticator, so the
 * attestation and assertion are built here with node:crypto (the format is WebAuthn Level 2).
 */
export class SoftwareAuthenticator {
  readonly #credentials: Credential[] = [];
  readonly #origin: string;

  /** `origin` is the page the browser would be on. */
  constructor(origin: string) {
    this.#origin = origin;
  }

  create(options: PublicKeyCredentialCreationOptionsJSON, opts: { origin?: string } = {}): RegistrationResponseJSON {
    const rpId = options.rp.id!;
    if (options.excludeCredentials?.some((c) => this.#credentials.some((m) => b64url(m.id) === c.id))) throw new Error('InvalidStateError: already registered');
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const coseKey = isoCBOR.encode(new Map<number, number | Uint8Array>([
      [1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')],
    ]));
    const credential: Credential = { id: randomBytes(16), privateKey, rpId, userHandle: options.user.id, signCount: 0 };
    this.#credentials.push(credential);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credential.id.length);
    const authData = Buffer.concat([
      sha256(rpId), Buffer.from([USER_PRESENT | USER_VERIFIED | ATTESTED_CREDENTIAL]), uint32(0), Buffer.alloc(16), idLength, credential.id, Buffer.from(coseKey),
    ]);
    const attestationObject = isoCBOR.encode(new Map<string, string | Uint8Array | Map<string, never>>([['fmt', 'none'], ['attStmt', new Map<string, never>()], ['authData', authData]]));
    const id = b64url(credential.id);
    return {
      id, rawId: id, type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
      response: { clientDataJSON: this.#clientData('webauthn.create', options.challenge, opts.origin), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /**
   * Signs the options' challenge with one of the allowed credentials, or (none listed) the
   * discoverable one for the RP: the newest, or `credentialId`. `userVerified: false` is a
   * touch without PIN or biometrics.
   */
  get(options: PublicKeyCredentialRequestOptionsJSON, opts: { credentialId?: string; userVerified?: boolean; origin?: string } = {}): AuthenticationResponseJSON {
    const allowed = options.allowCredentials?.map((c) => c.id);
    const candidates = this.#credentials.filter((c) => c.rpId === options.rpId && (!allowed?.length || allowed.includes(b64url(c.id))) && (!opts.credentialId || b64url(c.id) === opts.credentialId));
    const credential = candidates.at(-1);
    if (!credential) throw new Error('NotAllowedError: no credential for these options');
    credential.signCount += 1;
    const flags = USER_PRESENT | (opts.userVerified === false ? 0 : USER_VERIFIED);
    const authData = Buffer.concat([sha256(credential.rpId), Buffer.from([flags]), uint32(credential.signCount)]);
    const clientDataJSON = this.#clientData('webauthn.get', options.challenge, opts.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(Buffer.from(clientDataJSON, 'base64url'))]), credential.privateKey);
    const id = b64url(credential.id);
    return {
      id, rawId: id, type: 'public-key', authenticatorAttachment: 'platform', clientExtensionResults: {},
      response: { clientDataJSON, authenticatorData: b64url(authData), signature: b64url(signature), userHandle: credential.userHandle },
    };
  }

  /** Winds a credential's counter back, as a cloned copy of the key would be. */
  rewindCounter(credentialId: string, by: number): void {
    const c = this.#credentials.find((m) => b64url(m.id) === credentialId)!;
    c.signCount = Math.max(0, c.signCount - by);
  }

  #clientData(type: string, challenge: string, origin = this.#origin): string {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString('base64url');
  }
}
