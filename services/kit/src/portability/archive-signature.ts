import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { Invalid } from '../errors.ts';

/** The entry after the manifest that signs it (an archive without one is unsigned). */
export const SIGNATURE_ENTRY = 'manifest.sig';

/** What `manifest.sig` holds: an Ed25519 signature of the manifest entry's exact bytes. */
export interface ArchiveSignatureEntry { algorithm: 'Ed25519'; keyId: string; publicKey: string; signature: string }

/**
 * Who signed an archive: this installation, another installation this one is configured to
 * trust, an installation it does not know, or nobody (archives of earlier versions, or any
 * archive rebuilt by hand). Only the first two import without the platform admin's confirmation.
 */
export type ArchiveSigner = 'this-installation' | 'trusted-installation' | 'unknown-installation' | 'unsigned';
export interface ArchiveOrigin { signer: ArchiveSigner; keyId: string | null }

export const BAD_SIGNATURE = 'The archive is damaged or was changed: its manifest does not match its signature.';

/** PKCS#8 prefix of an Ed25519 private key, followed by its 32-byte seed. */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** A public key's short id: the first 16 hex digits of the SHA-256 of its 32 raw bytes. */
export const keyIdOf = (publicKey: string): string => createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('hex').slice(0, 16);

/**
 * The installation's archive signing key. Its 32-byte seed is derived from the installation's
 * master key (kit/crypto/master-key.ts: generated once in the data folder, or
 * PORTAL_ENCRYPTION_KEY in Kubernetes), so it lives where the other secrets live, is the same
 * on every replica and survives restarts without a key file of its own. Other installations
 * are known by their public keys (base64url, as `publicKey` shows), given in configuration.
 */
export class ArchiveSigningKey {
  readonly #private: KeyObject;
  readonly publicKey: string;
  readonly keyId: string;
  readonly #trusted: Map<string, string>;

  constructor(seed: Buffer, trustedPublicKeys: readonly string[] = []) {
    if (seed.length !== 32) throw new Error('An archive signing key needs a 32-byte seed');
    this.#private = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
    this.publicKey = createPublicKey(this.#private).export({ format: 'jwk' }).x!;
    this.keyId = keyIdOf(this.publicKey);
    this.#trusted = new Map(trustedPublicKeys.map((k) => [keyIdOf(k), k]));
  }

  sign(manifest: Buffer): ArchiveSignatureEntry {
    return { algorithm: 'Ed25519', keyId: this.keyId, publicKey: this.publicKey, signature: sign(null, manifest, this.#private).toString('base64') };
  }

  /**
   * Who signed `manifest`. A signature that does not verify is refused outright (the archive
   * was changed after signing); a valid one by a key that is neither ours nor trusted proves
   * nothing about its origin, so it counts as unknown.
   */
  origin(manifest: Buffer, entry: Buffer | null): ArchiveOrigin {
    if (!entry) return { signer: 'unsigned', keyId: null };
    let parsed: ArchiveSignatureEntry;
    try {
      parsed = JSON.parse(entry.toString('utf8')) as ArchiveSignatureEntry;
    } catch {
      throw new Invalid(BAD_SIGNATURE);
    }
    if (parsed?.algorithm !== 'Ed25519' || typeof parsed.publicKey !== 'string' || typeof parsed.signature !== 'string') throw new Invalid(BAD_SIGNATURE);
    const keyId = keyIdOf(parsed.publicKey);
    let valid = false;
    try {
      const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: parsed.publicKey }, format: 'jwk' });
      valid = verify(null, manifest, key, Buffer.from(parsed.signature, 'base64'));
    } catch {
      valid = false;
    }
    if (!valid) throw new Invalid(BAD_SIGNATURE);
    if (parsed.publicKey === this.publicKey) return { signer: 'this-installation', keyId };
    if (this.#trusted.get(keyId) === parsed.publicKey) return { signer: 'trusted-installation', keyId };
    return { signer: 'unknown-installation', keyId };
  }
}
