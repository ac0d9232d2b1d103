import { env, field, loadConfig, type ConfigOf } from '@ledgerline/kit/config.ts';
import { mailConfigSpec } from '@ledgerline/kit/mail/mail.config.ts';

export const signaturesConfigSpec = {
  tenantPollMs: field('TENANT_POLL_MS', env.int(5000, 100), 'how often the firm list is re-read from identity'),
  schedulerPollMs: field('SCHEDULER_POLL_MS', env.int(5000, 50), 'how often each replica looks for due e-mails and signed PDFs to hand to the files service'),
  encryptionKey: field('PORTAL_ENCRYPTION_KEY', env.optionalString(), '32-byte key (base64 or hex): signs the hand-off of signed PDFs to the files service and keys the hashes of knowledge answers and codes; unset generates one in PORTAL_DATA_DIR/keys'),
  sealKeyPem: field('SIGNATURE_SEAL_KEY_PEM', env.optionalString(), 'PEM RSA private key of the seal on signed PDFs; with SIGNATURE_SEAL_CERT_PEM, or unset for a self-signed one generated in PORTAL_DATA_DIR/keys (set both when replicas run on several machines)'),
  sealCertificatePem: field('SIGNATURE_SEAL_CERT_PEM', env.optionalString(), 'PEM X.509 certificate of the seal (its chain may follow); a certificate from a CA readers trust makes them show the seal as trusted'),
  sealName: field('SIGNATURE_SEAL_NAME', env.string('Ledgerline document seal'), 'common name of the self-signed seal certificate generated when none is configured'),
  linkAttemptsPerMinute: field('SIGNING_LINK_ATTEMPTS_PER_MINUTE', env.int(30, 1), 'calls one address, or one signing link, may make to the public signing calls per minute'),
  ...mailConfigSpec,
  publicBaseUrl: field('PUBLIC_BASE_URL', env.string('http://localhost:8080'), 'the portal\'s public URL, for links in e-mails'),
};

export type SignaturesConfig = ConfigOf<typeof signaturesConfigSpec>;
export const loadSignaturesConfig = (e: NodeJS.ProcessEnv): SignaturesConfig => loadConfig(signaturesConfigSpec, e);
