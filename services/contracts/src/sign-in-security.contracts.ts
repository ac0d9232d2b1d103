import { z } from 'zod';
import type { LoginResponse } from './auth.contracts.ts';
import { isoDateSchema } from './scalars.ts';

/** Ways to prove the second factor at sign-in. */
export const MFA_METHODS = ['totp', 'webauthn', 'email', 'recovery'] as const;
export type MfaMethod = (typeof MFA_METHODS)[number];
/** The methods `mfa/verify` takes a typed code for (a passkey answers through `mfa/webauthn/verify`). */
export const CODE_METHODS = ['totp', 'email', 'recovery'] as const;
export type CodeMethod = (typeof CODE_METHODS)[number];

/** The answer of a login whose password was right but a second factor is still due. */
export interface MfaRequiredResponse {
  mfaRequired: true;
  /** Opaque; names the firm (or the platform) it belongs to, lives 5 minutes, dies after 5 wrong codes. */
  challenge: string;
  methods: MfaMethod[];
}

/** The factors a setup at sign-in can add: an authenticator app, or a passkey (where the portal keeps the factors). */
export type SetupMethod = Extract<MfaMethod, 'totp' | 'webauthn'>;

/** The firm requires a second factor the user has not set up: enrol with this challenge, then sign in. */
export interface MfaSetupRequiredResponse {
  mfaSetupRequired: true;
  challenge: string;
  /** What may be set up: both on the built-in issuer; an authenticator app where a Keycloak realm keeps the factors. */
  methods: SetupMethod[];
}

/** Every login form's answer. */
export type LoginOutcome = LoginResponse | MfaRequiredResponse | MfaSetupRequiredResponse;

const challengeSchema = z.string({ error: 'Challenge is required' }).min(1, 'Challenge is required').max(200, 'Challenge is invalid');
/** A 6-digit authenticator code or a recovery code (spaces and dashes are ignored). */
const codeSchema = z.string({ error: 'Code is required' }).trim().min(1, 'Code is required').max(40, 'Code is invalid');

export const mfaVerifySchema = z.object({
  challenge: challengeSchema,
  method: z.enum(CODE_METHODS, { error: `Method must be one of ${CODE_METHODS.join(', ')}` }),
  code: codeSchema,
});

/** Enrolment while signed in, or with the setup challenge of a login. */
export const totpSetupSchema = z.object({ challenge: challengeSchema.optional() });
export const totpConfirmSchema = z.object({ code: codeSchema, challenge: challengeSchema.optional() });
/** Removing the authenticator or regenerating recovery codes needs a current code (authenticator or recovery). */
export const mfaCodeSchema = z.object({ code: codeSchema });
/** A signed-in user's fresh authenticator code (`mfa/check`), e.g. at the moment of signing. */
export const mfaCheckSchema = z.object({ code: z.string({ error: 'Code is required' }).trim().regex(/^\d{6}$/, 'The authenticator code has 6 digits') });
export interface MfaCheckResponse {
  method: 'totp';
}

/** E-mail sign-in of Client users: the answer is the same whatever the address. */
export const emailCodeRequestSchema = z.object({
  email: z.email({ error: 'Please enter a valid email address' }).max(254, 'Please enter a valid email address'),
});
export const EMAIL_CODE_SENT = 'If this address belongs to a client of the firm, a sign-in code is on its way. It works for 10 minutes.';

/** The address and the 6-digit code, or the one-click link's token. */
export const emailCodeVerifySchema = z.object({
  email: z.email({ error: 'Please enter a valid email address' }).max(254).optional(),
  code: z.string().trim().regex(/^\d{6}$/, 'The code has 6 digits').optional(),
  token: z.string().min(20, 'The link is not valid').max(200, 'The link is not valid').optional(),
}).refine((v) => v.token !== undefined || (v.email !== undefined && v.code !== undefined), { message: 'Enter your email address and the code' });

export const mfaEmailSchema = z.object({ challenge: challengeSchema });

export interface TotpSetupResponse {
  /** Base32, for typing into an authenticator by hand. */
  secret: string;
  otpauthUrl: string;
}

export interface RecoveryCodesResponse {
  /** Shown once; only their hashes are kept. */
  recoveryCodes: string[];
}

/** With a setup challenge, confirming also completes the sign-in (no recovery codes where a Keycloak realm keeps the authenticator). */
export type TotpConfirmResponse = RecoveryCodesResponse & Partial<LoginResponse>;

export interface MfaStatus {
  totp: boolean;
  recoveryCodesLeft: number;
  /** Passkeys registered (each a second factor, and a sign-in without a password). */
  passkeys: number;
  /** The firm's policy requires a second factor of this user. */
  required: boolean;
  /** Second factors are kept by the firm's Keycloak realm, not here. */
  managedByKeycloak: boolean;
  /** Keycloak firms: the realm's account console, where the user sets up their second factors. */
  accountConsoleUrl?: string;
}

export const securitySettingsSchema = z.object({
  requireMfaForStaff: z.boolean({ error: 'requireMfaForStaff must be true or false' }),
  requireMfaForClients: z.boolean({ error: 'requireMfaForClients must be true or false' }),
  allowEmailCodeForStaff: z.boolean({ error: 'allowEmailCodeForStaff must be true or false' }),
  allowEmailCodeForClients: z.boolean({ error: 'allowEmailCodeForClients must be true or false' }),
  clientEmailSignIn: z.boolean({ error: 'clientEmailSignIn must be true or false' }),
});
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;

export const SECURITY_EVENT_KINDS = [
  'sign-in', 'sign-in-failed', 'factor-added', 'factor-removed', 'factors-reset', 'recovery-code-used', 'recovery-codes-regenerated', 'policy-changed', 'sessions-revoked',
  // A user was shown a client's whole tax IDs (method: the client and the types).
  'tax-ids-revealed',
  // A signed-in user's fresh second factor (signing a document) was wrong or used already.
  'second-factor-check-failed',
  // A signer of a signature request gave a wrong e-mailed code or wrong knowledge answers (issue 41), or was locked out by them.
  'signing-identity-failed', 'signing-locked-out',
] as const;
export type SecurityEventKind = (typeof SECURITY_EVENT_KINDS)[number];

/** What each kind of event is called on screen (the API and its CSV keep the kinds' names). */
export const SECURITY_EVENT_LABELS: Readonly<Record<SecurityEventKind, string>> = {
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in failed',
  'factor-added': 'Second factor added',
  'factor-removed': 'Second factor removed',
  'factors-reset': 'Second factors reset by an Admin',
  'recovery-code-used': 'Recovery code used',
  'recovery-codes-regenerated': 'Recovery codes regenerated',
  'policy-changed': 'Sign-in policy changed',
  'sessions-revoked': 'Signed out of sessions',
  'tax-ids-revealed': 'Whole tax IDs shown',
  'second-factor-check-failed': 'Second-factor check failed',
  'signing-identity-failed': 'Signer\'s identity check failed',
  'signing-locked-out': 'Signer locked out of signing',
};

export interface SecurityEvent {
  id: number;
  at: string;
  kind: SecurityEventKind;
  userId: number | null;
  username: string | null;
  /** How (password, totp, recovery) or what (totp, policy). */
  method: string | null;
  address: string | null;
  browser: string | null;
  /** Who did it, when not the user themselves (an Admin's reset, a policy change). */
  actorId: number | null;
}

export const securityEventsQuerySchema = z.object({
  userId: z.coerce.number({ error: 'userId must be a number' }).int().min(1).max(2_147_483_647).optional(),
  kind: z.enum(SECURITY_EVENT_KINDS, { error: `kind must be one of ${SECURITY_EVENT_KINDS.join(', ')}` }).optional(),
  from: isoDateSchema('from').optional(),
  to: isoDateSchema('to').optional(),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).optional(),
});

/**
 * What a browser's WebAuthn call produced, as JSON (base64url fields): the shape
 * @simplewebauthn/browser answers. Checked here for shape and size; the signature and
 * everything inside is the server library's to verify.
 */
const base64url = (what: string, max: number) => z.string({ error: `${what} is required` }).min(1, `${what} is required`).max(max, `${what} is too long`).regex(/^[A-Za-z0-9_-]+={0,2}$/, `${what} is not base64url`);
const credentialIdentity = {
  id: base64url('Credential id', 1400),
  rawId: base64url('Credential id', 1400),
  type: z.literal('public-key', { error: 'Credential type must be public-key' }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};
export const registrationResponseSchema = z.object({
  ...credentialIdentity,
  response: z.object({
    clientDataJSON: base64url('clientDataJSON', 4000),
    attestationObject: base64url('attestationObject', 20_000),
    transports: z.array(z.string().max(40)).max(10).optional(),
  }, { error: 'The passkey\'s response is missing' }).loose(),
}, { error: 'The passkey\'s response is missing' });
export const authenticationResponseSchema = z.object({
  ...credentialIdentity,
  response: z.object({
    clientDataJSON: base64url('clientDataJSON', 4000),
    authenticatorData: base64url('authenticatorData', 4000),
    // Post-quantum keys (ML-DSA, which browsers now offer) sign with up to 4.6 kB.
    signature: base64url('signature', 10_000),
    userHandle: base64url('userHandle', 200).optional(),
  }, { error: 'The passkey\'s response is missing' }).loose(),
}, { error: 'The passkey\'s response is missing' });

/** Starting to add a passkey: signed in, or with a login's setup challenge (the firm requires a second factor). */
export const passkeyOptionsSchema = z.object({ challenge: challengeSchema.optional() });
/** Registering a passkey: the browser's answer to the options and a name to tell it apart (and the setup challenge, if any). */
export const passkeyRegisterSchema = z.object({
  name: z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(60, 'Name is at most 60 characters'),
  response: registrationResponseSchema,
  challenge: challengeSchema.optional(),
});
export const mfaWebauthnOptionsSchema = z.object({ challenge: challengeSchema });
export const mfaWebauthnVerifySchema = z.object({ challenge: challengeSchema, response: authenticationResponseSchema });
/** Sign-in without a password: the assertion of a discoverable credential. */
export const passkeyLoginVerifySchema = z.object({ response: authenticationResponseSchema });

export interface Passkey {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}
/** A passkey added with a setup challenge also completes the sign-in (token, user, tenant). */
export type PasskeyRegisterResponse = Passkey & Partial<LoginResponse>;
