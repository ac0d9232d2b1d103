import {
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
  type AuthenticationResponseJSON, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON, type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { randomBytes } from 'node:crypto';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { Queryable } from '@ledgerline/kit/db/database.ts';
import { Conflict, Invalid, NotFound } from '@ledgerline/kit/errors.ts';
import type { Passkey } from '@ledgerline/contracts/sign-in-security.contracts.ts';
import type { MfaSubject, SignInContext } from '../mfa/mfa-subject.ts';
import { eventContext } from '../mfa/mfa.service.ts';
import type { SecurityEventStore } from '../mfa/security-event.store.ts';
import { PasskeyStore, type CeremonyPurpose, type StoredPasskey } from './passkey.store.ts';

/** How long the browser (and the person at it) has to answer a ceremony's challenge. */
export const CEREMONY_TTL_SECONDS = 5 * 60;
export const PASSKEY_NOT_ACCEPTED = 'This passkey was not accepted. Please try again.';
const REGISTRATION_EXPIRED = 'This passkey registration has expired. Please add the passkey again.';

/**
 * The relying party passkeys are bound to: the host of the portal's public URL (its RP ID)
 * and that URL's origin, the one page origin an answer is accepted from.
 */
export interface RelyingParty {
  id: string;
  origin: string;
}

export const relyingPartyOf = (publicBaseUrl: string): RelyingParty => {
  const url = new URL(publicBaseUrl);
  return { id: url.hostname, origin: url.origin };
};

/**
 * Passkeys of the built-in issuer (@simplewebauthn/server): registration while signed in,
 * an assertion as the second step of a sign-in, and a discoverable credential's assertion
 * as a whole sign-in. Every ceremony's challenge is stored and used once; an assertion must
 * carry a higher signature counter than the last (unless the authenticator keeps none).
 */
export class PasskeyService {
  readonly store = new PasskeyStore();
  readonly #rp: RelyingParty;
  readonly #events: SecurityEventStore;

  constructor(deps: { relyingParty: RelyingParty; events: SecurityEventStore }) {
    this.#rp = deps.relyingParty;
    this.#events = deps.events;
  }

  async registrationOptions(s: MfaSubject, displayName: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.store.ofUser(s.db, s.userId);
    const options = await generateRegistrationOptions({
      rpName: s.company?.name ?? 'Ledgerline', rpID: this.#rp.id, userName: s.username, userDisplayName: displayName, userID: newUserHandle(s),
      attestationType: 'none', timeout: CEREMONY_TTL_SECONDS * 1000,
      // The same authenticator twice would be one factor counted as two.
      excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
      // Discoverable, so the passkey can also sign in without a username and password.
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    await this.store.startCeremony(s.db, { challenge: options.challenge, purpose: 'register', userId: s.userId, ttlSeconds: CEREMONY_TTL_SECONDS });
    return options;
  }

  /** Adds the passkey that answers this user's registration options (in the caller's transaction, which may hold a setup challenge). */
  async register(tx: Queryable, s: MfaSubject, name: string, response: RegistrationResponseJSON, ctx: SignInContext): Promise<Passkey> {
    const challenge = challengeOf(response.response.clientDataJSON);
    if (!challenge || !(await this.store.takeCeremony(tx, challenge, 'register', s.userId))) throw new Invalid(REGISTRATION_EXPIRED);
    const verified = await verifyRegistrationResponse({
      response, expectedChallenge: challenge, expectedOrigin: this.#rp.origin, expectedRPID: this.#rp.id, requireUserVerification: false,
    }).catch(() => null);
    if (!verified?.verified) throw new Invalid('The passkey could not be verified. Please try again.');
    const { credential } = verified.registrationInfo;
    const added = await this.store.add(tx, {
      userId: s.userId, credentialId: credential.id, publicKey: isoBase64URL.fromBuffer(credential.publicKey),
      signCount: credential.counter, transports: credential.transports ?? response.response.transports ?? [], name,
    });
    if (!added) throw new Conflict('This passkey is registered already.');
    await this.#events.record(tx, { kind: 'factor-added', userId: s.userId, username: s.username, method: 'webauthn', ...eventContext(ctx) });
    return added;
  }

  async remove(s: MfaSubject, id: number, ctx: SignInContext): Promise<void> {
    await s.db.transaction(async (tx) => {
      if (!(await this.store.remove(tx, s.userId, id))) throw new NotFound('Passkey not found');
      await this.#events.record(tx, { kind: 'factor-removed', userId: s.userId, username: s.username, method: 'webauthn', ...eventContext(ctx) });
    });
  }

  /** Options for the second step of a sign-in: one of this user's passkeys. */
  async secondFactorOptions(tx: Queryable, s: MfaSubject): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const mine = await this.store.ofUser(tx, s.userId);
    if (!mine.length) throw new Invalid('No passkey is registered for this account.');
    const options = await generateAuthenticationOptions({
      rpID: this.#rp.id, userVerification: 'preferred', timeout: CEREMONY_TTL_SECONDS * 1000,
      allowCredentials: mine.map((p) => ({ id: p.credentialId, transports: p.transports })),
    });
    await this.store.startCeremony(tx, { challenge: options.challenge, purpose: 'second-factor', userId: s.userId, ttlSeconds: CEREMONY_TTL_SECONDS });
    return options;
  }

  /** Options for a sign-in without a password: any discoverable passkey of this firm, the person verified at the device. */
  async signInOptions(db: Queryable): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({ rpID: this.#rp.id, userVerification: 'required', timeout: CEREMONY_TTL_SECONDS * 1000 });
    await this.store.startCeremony(db, { challenge: options.challenge, purpose: 'sign-in', userId: null, ttlSeconds: CEREMONY_TTL_SECONDS });
    return options;
  }

  /**
   * Checks an assertion against the ceremony it answers (taken, so never twice) and the
   * passkey it names; records the new counter. `userId` is the user of a second step, or
   * null for a sign-in without a password, which also needs the person verified (PIN,
   * biometrics): the passkey is then both factors. Answers the passkey, or null.
   */
  async checkAssertion(tx: Queryable, response: AuthenticationResponseJSON, purpose: Exclude<CeremonyPurpose, 'register'>, userId: number | null): Promise<StoredPasskey | null> {
    const challenge = await this.takeChallenge(tx, response, purpose, userId);
    return challenge ? this.verifyAssertion(tx, response, challenge, userId) : null;
  }

  /** The challenge of the live ceremony this assertion answers, taken (used once); null when there is none. */
  async takeChallenge(db: Queryable, response: AuthenticationResponseJSON, purpose: Exclude<CeremonyPurpose, 'register'>, userId: number | null): Promise<string | null> {
    const challenge = challengeOf(response.response.clientDataJSON);
    return challenge && (await this.store.takeCeremony(db, challenge, purpose, userId)) ? challenge : null;
  }

  /**
   * Checks an assertion for a challenge already taken against the passkey it names in `tx`'s
   * schema (a sign-in on /login or /admin/login takes its challenge from the platform's).
   */
  async verifyAssertion(tx: Queryable, response: AuthenticationResponseJSON, challenge: string, userId: number | null): Promise<StoredPasskey | null> {
    const passkey = await this.store.byCredentialId(tx, response.id);
    if (!passkey || (userId !== null && passkey.userId !== userId)) return null;
    const verified = await verifyAuthenticationResponse({
      response, expectedChallenge: challenge, expectedOrigin: this.#rp.origin, expectedRPID: this.#rp.id,
      credential: { id: passkey.credentialId, publicKey: isoBase64URL.toBuffer(passkey.publicKey), counter: passkey.signCount, transports: passkey.transports },
      requireUserVerification: userId === null,
    }).catch(() => null);
    if (!verified?.verified) return null;
    return (await this.store.recordUse(tx, passkey, verified.authenticationInfo.newCounter)) ? passkey : null;
  }
}

/**
 * The user handle a passkey is created with (WebAuthn `user.id`, which the device returns
 * with every assertion of a discoverable passkey): whose passkey it is, the firm's id (`f12`)
 * or the platform's (`p`), then random bytes. It lets /login find the firm of a passkey
 * offered without a username; it says nothing about the person, and carries no secret.
 */
function newUserHandle(s: MfaSubject): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(`${s.company ? `f${s.company.id}` : 'p'}.${randomBytes(16).toString('base64url')}`));
}

/** The firm (its id) a discoverable passkey's user handle names, or null (the platform's, a passkey made before handles named one, or none). */
export function firmOfUserHandle(userHandle: string | undefined): number | null {
  if (!userHandle) return null;
  let text: string;
  try {
    text = Buffer.from(isoBase64URL.toBuffer(userHandle)).toString('utf8');
  } catch {
    return null;
  }
  const match = /^f([1-9]\d{0,9})\./.exec(text);
  return match ? Number(match[1]) : null;
}

const challengeOf = (clientDataJSON: string): string | null => {
  try {
    const { challenge } = decodeClientDataJSON(clientDataJSON);
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 200 ? challenge : null;
  } catch {
    return null;
  }
};
