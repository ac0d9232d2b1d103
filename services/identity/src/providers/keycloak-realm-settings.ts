import type ClientRepresentation from '@keycloak/keycloak-admin-client/lib/defs/clientRepresentation.js';
import type ProtocolMapperRepresentation from '@keycloak/keycloak-admin-client/lib/defs/protocolMapperRepresentation.js';
import type CredentialRepresentation from '@keycloak/keycloak-admin-client/lib/defs/credentialRepresentation.js';
import type RealmRepresentation from '@keycloak/keycloak-admin-client/lib/defs/realmRepresentation.js';
import type UserRepresentation from '@keycloak/keycloak-admin-client/lib/defs/userRepresentation.js';
import type { UserProfileAttribute, UserProfileConfig } from '@keycloak/keycloak-admin-client/lib/defs/userProfileMetadata.js';
import { PORTAL_CLIENT_ID } from './keycloak-direct-grant.ts';

/**
 * What a tenant's realm must look like for the portal. The provider applies these on
 * every provisioning, so a realm edited by hand or made by an older version is brought
 * back in line.
 */

/** The user attribute holding the portal's numeric user id; tokens carry it as `sub` (kit's keycloakClaimsMapper). */
export const PORTAL_USER_ID_ATTRIBUTE = 'portal_user_id';
/**
 * The portal username as the portal spells it: Keycloak lowercases usernames, so
 * `preferred_username` would turn "AnnaB" into "annab". Tokens carry it as the username.
 */
export const PORTAL_USERNAME_ATTRIBUTE = 'portal_username';
const PORTAL_ATTRIBUTES = [PORTAL_USER_ID_ATTRIBUTE, PORTAL_USERNAME_ATTRIBUTE];

/** Keycloak's own realm roles: every realm has them, and the portal neither grants nor removes them. */
export const isKeycloakRole = (realm: string, role: string | undefined) =>
  role === 'offline_access' || role === 'uma_authorization' || role === `default-roles-${realm}`;

export function realmSettings(accessTokenLifespanSeconds: number | undefined): RealmRepresentation {
  return {
    enabled: true,
    // The portal's login form uses the password grant, which has no captcha or second
    // factor: Keycloak's lockout after repeated failures is the guard against guessing.
    bruteForceProtected: true,
    // Portal users can be renamed; Keycloak otherwise refuses even an admin's rename. Users
    // still cannot rename themselves: the user profile lets only admins edit the username.
    editUsernameAllowed: true,
    ...(accessTokenLifespanSeconds === undefined ? {} : { accessTokenLifespan: accessTokenLifespanSeconds }),
  };
}

/** Confidential, password grant only: the portal's own login forms are its only use. */
export const portalClientSettings: ClientRepresentation = {
  clientId: PORTAL_CLIENT_ID,
  name: 'Portal login forms',
  protocol: 'openid-connect',
  enabled: true,
  publicClient: false,
  clientAuthenticatorType: 'client-secret',
  directAccessGrantsEnabled: true,
  standardFlowEnabled: false,
  implicitFlowEnabled: false,
  serviceAccountsEnabled: false,
};

/** Each portal attribute into access tokens, as a claim of the same name; verifiers read nothing else. */
export const portalClaimMappers: ProtocolMapperRepresentation[] = PORTAL_ATTRIBUTES.map((attribute) => ({
  name: attribute,
  protocol: 'openid-connect',
  protocolMapper: 'oidc-usermodel-attribute-mapper',
  config: {
    'user.attribute': attribute,
    'claim.name': attribute,
    'jsonType.label': 'String',
    'access.token.claim': 'true',
    'id.token.claim': 'false',
    'userinfo.token.claim': 'false',
    'introspection.token.claim': 'true',
    multivalued: 'false',
  },
}));

/** Attributes that end up in portal tokens (`preferred_username`, `name`): the portal alone sets them. */
const ADMIN_EDITED = new Set(['username', 'firstName', 'lastName']);
/** Keycloak requires these of users by default; portal users have none, and a missing one blocks logins ("Account is not fully set up"). */
const OPTIONAL = new Set(['email', 'firstName', 'lastName']);

/**
 * The realm's user profile (Keycloak 24+ keeps only declared attributes) adjusted for
 * portal users: the portal attributes declared and visible to admins only; no email or
 * last name required; the full name fits in firstName whatever characters it has; and
 * users cannot rename themselves in Keycloak's account console.
 */
export function portalUserProfile(current: UserProfileConfig): UserProfileConfig {
  const attributes = (current.attributes ?? [])
    .filter((a) => !PORTAL_ATTRIBUTES.includes(a.name ?? ''))
    .map((a): UserProfileAttribute => {
      const adjusted = { ...a };
      if (a.name && OPTIONAL.has(a.name)) delete adjusted.required;
      if (a.name && ADMIN_EDITED.has(a.name)) adjusted.permissions = { view: a.permissions?.view ?? ['admin', 'user'], edit: ['admin'] };
      if (a.name === 'firstName' && a.validations) {
        const { 'person-name-prohibited-characters': _, ...validations } = a.validations;
        adjusted.validations = validations;
      }
      return adjusted;
    });
  const adminOnly = { view: ['admin'], edit: ['admin'] };
  attributes.push(
    {
      name: PORTAL_USER_ID_ATTRIBUTE,
      displayName: 'Portal user id',
      validations: { pattern: { pattern: '^[0-9]+$', 'error-message': 'The portal user id is a number.' } },
      permissions: adminOnly,
      multivalued: false,
    },
    { name: PORTAL_USERNAME_ATTRIBUTE, displayName: 'Portal username', permissions: adminOnly, multivalued: false },
  );
  return { ...current, attributes };
}

/** Keycloak's required action "Configure OTP": its pages make the user set up an authenticator before they go on. */
export const CONFIGURE_TOTP = 'CONFIGURE_TOTP';

/** Credential types that are a second factor in a realm: what an Admin's reset removes. */
export const SECOND_FACTOR_CREDENTIALS = ['otp', 'webauthn', 'webauthn-passwordless', 'recovery-authn-codes'];

/**
 * A user's required actions with CONFIGURE_TOTP present exactly when the policy requires a
 * second factor and the user has no authenticator yet (`totp`); the other actions kept.
 */
export function withSetupRequirement(user: UserRepresentation | undefined, required: boolean): string[] {
  const others = (user?.requiredActions ?? []).filter((a) => a !== CONFIGURE_TOTP);
  return required && !user?.totp ? [...others, CONFIGURE_TOTP] : others;
}

/**
 * An authenticator set up in the portal as a realm OTP credential: RFC 6238 as the portal
 * checks it (SHA-1, 6 digits, 30 s), the secret kept base32 as the app received it
 * (`secretEncoding`; without it Keycloak would key the codes with the string's own bytes).
 */
export function otpCredential(secretBase32: string): CredentialRepresentation {
  return {
    type: 'otp',
    userLabel: 'Authenticator app',
    secretData: JSON.stringify({ value: secretBase32 }),
    credentialData: JSON.stringify({ subType: 'totp', digits: 6, counter: 0, period: 30, algorithm: 'HmacSHA1', secretEncoding: 'BASE32' }),
  };
}
