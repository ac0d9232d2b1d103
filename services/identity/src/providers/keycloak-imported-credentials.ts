import type CredentialRepresentation from '@keycloak/keycloak-admin-client/lib/defs/credentialRepresentation.js';
import { Invalid } from '@ledgerline/kit/errors.ts';
import type { ImportedUser } from './identity-provider.ts';

/** `$argon2id$v=19$m=19456,t=2,p=1$<salt>$<hash>`, salt and hash in unpadded base64. */
const ARGON2_PHC = /^\$argon2(?<type>id|i|d)\$v=(?<version>16|19)\$m=(?<memory>\d+),t=(?<iterations>\d+),p=(?<parallelism>\d+)\$(?<salt>[A-Za-z0-9+/]+)\$(?<hash>[A-Za-z0-9+/]+)$/;

/**
 * A moved firm's sign-in as Keycloak credentials, so its users keep their passwords and
 * authenticators in the realm. Keycloak's argon2 hash provider (in every build but FIPS
 * mode) verifies a hash with the parameters stored beside it, so the built-in issuer's
 * argon2id hash goes in as it is (Keycloak re-hashes it with the realm's own parameters at
 * the user's next sign-in); an authenticator's base32 secret goes in as base32, the
 * encoding Keycloak's OTP credential names.
 */
export function importedCredentials(user: ImportedUser): CredentialRepresentation[] {
  const credentials: CredentialRepresentation[] = [];
  if (user.passwordHash !== null) credentials.push(argon2Password(user.username, user.passwordHash));
  if (user.totpSecret !== null) {
    credentials.push({
      type: 'otp',
      userLabel: 'Authenticator app',
      secretData: JSON.stringify({ value: user.totpSecret }),
      credentialData: JSON.stringify({ subType: 'totp', digits: 6, counter: 0, period: 30, algorithm: 'HmacSHA1', secretEncoding: 'BASE32' }),
    });
  }
  return credentials;
}

function argon2Password(username: string, phc: string): CredentialRepresentation {
  const phcParts = ARGON2_PHC.exec(phc)?.groups;
  if (!phcParts) throw new Invalid(`The archive holds a password hash of ${username} that Keycloak cannot take (not argon2).`);
  const { type, version, memory, iterations, parallelism } = phcParts;
  const salt = Buffer.from(phcParts.salt!, 'base64');
  const hash = Buffer.from(phcParts.hash!, 'base64');
  return {
    type: 'password',
    temporary: false,
    secretData: JSON.stringify({ value: hash.toString('base64'), salt: salt.toString('base64'), additionalParameters: {} }),
    credentialData: JSON.stringify({
      hashIterations: Number(iterations),
      algorithm: 'argon2',
      additionalParameters: {
        type: [type], version: [version === '19' ? '1.3' : '1.0'], hashLength: [String(hash.length)], memory: [memory], parallelism: [parallelism],
      },
    }),
  };
}
