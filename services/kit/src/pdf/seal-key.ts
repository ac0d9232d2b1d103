import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import forge from 'node-forge';
import type { SealIdentity } from './seal.ts';

const PEM_KEY = /-----BEGIN (?:RSA )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA )?PRIVATE KEY-----/;
const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;
const SELF_SIGNED_YEARS = 10;

/**
 * The seal's key and certificate: both from configuration when set (required when replicas
 * run on several machines, which would otherwise each make their own, and for a certificate
 * a reader trusts); else a self-signed pair generated once into the data folder — the
 * embedded default, where a reader shows the seal as intact but its issuer as unknown.
 */
export function loadSealIdentity(configured: { keyPem?: string; certificatePem?: string }, dataDir: string, commonName: string): SealIdentity {
  if (configured.keyPem || configured.certificatePem) {
    if (!configured.keyPem || !configured.certificatePem) throw new Error('the signature seal needs both its key and its certificate configured, or neither');
    return parseSealIdentity(`${configured.keyPem}\n${configured.certificatePem}`);
  }
  const dir = join(dataDir, 'keys');
  const file = join(dir, 'signature-seal.pem');
  mkdirSync(dir, { recursive: true });
  const pending = join(dir, `signature-seal.${randomBytes(6).toString('hex')}.tmp`);
  const fresh = selfSignedSealIdentity(commonName);
  writeFileSync(pending, `${fresh.keyPem}\n${fresh.certificatePem}\n`, { mode: 0o600 });
  try {
    // A hard link appears whole or not at all: of several services starting at once, exactly one places it.
    linkSync(pending, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(pending, { force: true });
  }
  return parseSealIdentity(readFileSync(file, 'utf8'));
}

/** The key and certificate out of PEM text holding both (configuration values may also carry the certificate's chain; the first one is used). */
export function parseSealIdentity(pem: string): SealIdentity {
  const keyPem = PEM_KEY.exec(pem)?.[0];
  const certificatePem = PEM_CERTIFICATE.exec(pem)?.[0];
  if (!keyPem || !certificatePem) throw new Error('the signature seal needs a PEM private key and a PEM certificate');
  return { keyPem, certificatePem };
}

/** A new RSA-3072 key with a self-signed certificate for document signing. */
export function selfSignedSealIdentity(commonName: string, now = new Date()): SealIdentity {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 3072 });
  const keyPem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString().trim();
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(publicKey.export({ type: 'spki', format: 'pem' }).toString());
  // A positive serial: the leading byte below 0x80.
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now);
  cert.validity.notAfter.setUTCFullYear(now.getUTCFullYear() + SELF_SIGNED_YEARS);
  const name = [{ name: 'commonName', value: commonName }, { name: 'organizationName', value: 'Ledgerline' }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', critical: true, digitalSignature: true, nonRepudiation: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(forge.pki.privateKeyFromPem(keyPem), forge.md.sha256.create());
  return { keyPem, certificatePem: forge.pki.certificateToPem(cert).trim() };
}
