import { z } from 'zod';
import { idSchema } from './scalars.ts';
import { RESERVED_TENANT_NAMES } from './reserved-names.ts';
import { firmCountrySchema, type FirmCountry } from './firm-country.ts';
import { timeZoneSchema } from './time-zone.ts';

/** A firm's short name, as it appears in paths (`/api/{shortName}/…`). */
export const SHORT_NAME_PATTERN = /^[a-z0-9]+$/;

const optionalText = z.string().trim().max(253).nullish().transform((v) => (v ? v : null));

export const RESERVED_SHORT_NAME = (shortName: string) => `"${shortName}" is reserved by the portal; choose another short name`;

/**
 * The one check of a firm's short name, for creating, renaming and importing a firm alike:
 * the pattern, and none of the portal's own first path segments (a firm named `api` or
 * `login` would be unreachable, and its usernames taken).
 */
export const shortNameSchema = z.string({ error: 'Short name is required' }).min(1, 'Short name is required').max(40)
  .regex(SHORT_NAME_PATTERN, 'Only lowercase letters and numbers allowed')
  .refine((shortName) => !RESERVED_TENANT_NAMES.has(shortName), { error: (issue) => RESERVED_SHORT_NAME(String(issue.input)) });

/** Tenant (company) form of the administrator portal, spec 000 §5. */
export const companyInputSchema = z.object({
  name: z.string({ error: 'Company name is required' }).trim().min(1, 'Company name is required').max(200),
  shortName: shortNameSchema,
  schemaName: z.string().max(63).regex(/^[a-z0-9_]+$/, 'Only lowercase letters, numbers, and underscores allowed').optional(),
  urlPattern: z.enum(['path', 'subdomain', 'domain'], { error: 'URL pattern must be path, subdomain or domain' }).default('path'),
  customDomain: optionalText,
  customSubdomain: optionalText,
  isActive: z.boolean().default(true),
  /** The firm's IANA time zone: absent keeps the current one, null follows the platform's default. */
  timeZone: timeZoneSchema.nullish(),
  /** The firm's country (ISO 3166-1 alpha-2): absent keeps the current one, null clears it. */
  country: firmCountrySchema.nullish(),
});
export type CompanyInput = z.infer<typeof companyInputSchema>;

export interface Company {
  id: number;
  name: string;
  shortName: string;
  schemaName: string;
  customDomain: string | null;
  customSubdomain: string | null;
  urlPattern: 'path' | 'subdomain' | 'domain';
  isActive: boolean;
  /** The firm's IANA time zone ("today", "due" and "overdue" are worked out in it). */
  timeZone: string;
  /** Whether that zone is the platform's default rather than one chosen for the firm. */
  timeZoneIsDefault: boolean;
  /** ISO 3166-1 alpha-2; null for a firm created before countries whose zone named none (see the migration). */
  country: FirmCountry | null;
  /** ISO 4217, from the country; null with it. */
  currency: string | null;
  createdAt: string;
}

/** A firm Admin's settings of their own firm (PUT /api/firm-settings). */
/** Query of identity's internal firm listing: `since`, the version of the list the caller holds. */
export const tenantListQuerySchema = z.object({
  since: z.string().regex(/^\d{1,19}$/, 'since must be a list version (digits)').optional(),
});

export const firmSettingsInputSchema = z.object({
  /** null goes back to the platform's default. */
  timeZone: timeZoneSchema.nullable(),
});
export type FirmSettingsInput = z.infer<typeof firmSettingsInputSchema>;
/** A firm export job (`/api/companies/{id}/exports`). */
export interface FirmExport {
  id: string;
  companyId: number;
  status: 'running' | 'ready' | 'failed';
  /** Percent done. */
  progress: number;
  /** Bytes of the archive once ready. */
  size: number | null;
  /** Why it failed. */
  message: string | null;
  createdAt: string;
}

/** A firm import job (`/api/companies/imports/{id}`); `company` names the new firm once ready. */
export interface FirmImport {
  id: string;
  status: 'running' | 'ready' | 'failed';
  progress: number;
  /** Why it failed; once ready, what is left to do (users the archive holds no password for). */
  message: string | null;
  shortName: string;
  company: Company | null;
  /** Who signed the archive: this installation, a trusted one (FIRM_ARCHIVE_TRUSTED_KEYS), an unknown one, or nobody. */
  origin: FirmArchiveOrigin;
  createdAt: string;
}

export interface FirmArchiveOrigin { signer: 'this-installation' | 'trusted-installation' | 'unknown-installation' | 'unsigned'; keyId: string | null }

/** `GET /api/companies/imports/signing-key`: what another installation lists in FIRM_ARCHIVE_TRUSTED_KEYS to trust this one's archives. */
export interface FirmArchiveSigningKey { keyId: string; publicKey: string }

/** The text fields of `POST /api/companies/import` (the archive is the `file` part). */
export const firmImportFieldsSchema = z.object({
  name: companyInputSchema.shape.name,
  shortName: shortNameSchema,
  /** The platform admin's confirmation that an unsigned archive, or one of an unknown installation, may be imported. */
  confirm: z.enum(['true', 'false'], { error: 'confirm must be true or false' }).default('false').transform((v) => v === 'true'),
});

const idList = (field: string) => z.array(idSchema(field, `${field} must be a list of valid ids`)).max(10_000).nullish()
  .transform((v) => (v && v.length ? [...new Set(v)] : null));

/** User form, spec 000 §5; password optional on update (blank keeps the current one). */
export const userPasswordSchema = z.string({ error: 'Password must be at least 6 characters' }).min(6, 'Password must be at least 6 characters').max(200);
/** Blank or absent: none (a new user then sets their own through an invitation; an update keeps the current one). */
const optionalPasswordSchema = z.union([z.literal(''), userPasswordSchema]).nullish().transform((v) => (v ? v : undefined));

const userFields = z.object({
  username: z.string({ error: 'Username must be at least 3 characters' }).trim().min(3, 'Username must be at least 3 characters').max(100),
  password: optionalPasswordSchema,
  fullName: z.string({ error: 'Full name is required' }).trim().min(1, 'Full name is required').max(200),
  roleId: idSchema('roleId', 'Please select a role'),
  clientIds: idList('clientIds'),
  reportTypeIds: idList('reportTypeIds'),
  /** Optional; unique in the firm. A Client user with one may sign in by an e-mailed code. */
  email: z.union([z.literal(''), z.email('Please enter a valid email address').max(254, 'Please enter a valid email address')]).nullish()
    .transform((v) => (v ? v.toLowerCase() : null)),
});
export const userInputSchema = userFields.extend({
  /** E-mails the new user an invitation to set their own password (POST /api/users/{id}/invite). */
  invite: z.boolean().default(false),
});
export const userUpdateSchema = userFields;
export type UserInput = z.infer<typeof userInputSchema>;
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/**
 * POST /api/users/{id}/report-access (Admin): adds report types to a CPA's or custom-role user's
 * list, keeping the rest (a statutory calendar grants the types it made to the staff who serve the clients).
 */
export const reportAccessGrantSchema = z.object({
  reportTypeIds: z.array(z.coerce.number().int().min(1), { error: 'reportTypeIds must be a list of report type ids' })
    .min(1, 'reportTypeIds must be a list of report type ids').max(500).transform((v) => [...new Set(v)]),
});
/** The reply: the ids this call added (those the user lacked). */
export interface ReportAccessGrant { userId: number; reportTypeIds: number[] }
export const REPORT_ACCESS_GRANT_DENIED = 'Report types are granted to CPAs and custom-role users only';

export interface User {
  id: number;
  username: string;
  fullName: string;
  roleId: number;
  roleName: string;
  /** Same as roleName: the shell reads `role`. */
  role: string;
  clientIds: number[] | null;
  reportTypeIds: number[] | null;
  email: string | null;
  createdAt: string;
  /** USER_STATUSES: whether the user can sign in yet. */
  status: UserStatus;
  /** When the newest invitation was sent; null when none is pending. */
  invitedAt: string | null;
}

/**
 * active: has a password, has accepted an invitation or has signed in; invited: a live
 * invitation waits; disabled: neither (an invitation revoked or expired, or none sent):
 * the user cannot sign in until invited again or given a password.
 */
export const USER_STATUSES = ['invited', 'active', 'disabled'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** An invitation lives this long (issue 40), and works once. */
export const INVITATION_TTL_DAYS = 7;
export interface InvitationSent { userId: number; sentTo: string; invitedAt: string; expiresAt: string }
export const INVITATION_INVALID = 'This invitation is not valid any more. Ask the firm for a new one.';
export const INVITATION_NO_ADDRESS = 'This user has no e-mail address to send an invitation to. Add one first.';
export const INVITATION_ALREADY_ACTIVE = 'This user can already sign in.';

/** GET /api/{t}/auth/invitation?token=: what the set-password page shows (the token is not used up). */
export const invitationQuerySchema = z.object({ token: z.string({ error: 'token is required' }).min(16, 'token is required').max(200) });
export interface InvitationInfo {
  firmName: string;
  fullName: string;
  username: string;
  /** Client users of a firm that allows it may sign in with an e-mailed code instead of a password. */
  emailCodeSignIn: boolean;
  expiresAt: string;
}
/** POST /api/{t}/auth/invitation: accepts it; a password is required unless emailCodeSignIn. */
export const invitationAcceptSchema = invitationQuerySchema.extend({ password: optionalPasswordSchema });
export const INVITATION_PASSWORD_REQUIRED = 'Password must be at least 6 characters';

/**
 * Identity's internal path (service port only; the gateway never routes /internal) that makes a
 * Client user and e-mails them an invitation, called by the client import with the importing
 * Admin's or DTA's token; answers 201 with the User (status 'invited').
 */
export const INTERNAL_INVITED_CLIENT_USERS_PATH = '/internal/users/invited-clients';
export const invitedClientUserSchema = z.object({
  username: userFields.shape.username,
  fullName: userFields.shape.fullName,
  /** Where the invitation goes; required unless the username is an address. */
  email: userFields.shape.email,
  /** The client first: a Client user's first entry is their client. */
  clientIds: z.array(idSchema('clientIds', 'clientIds must be a list of valid ids')).min(1, 'clientIds names the client').max(100),
});
export type InvitedClientUserInput = z.input<typeof invitedClientUserSchema>;

/** A user as the people picker shows them to whoever may not administer users: no access lists. */
export type UserSummary = Pick<User, 'id' | 'username' | 'fullName' | 'role'>;

export const roleInputSchema = z.object({
  name: z.string({ error: 'Role name is required' }).trim().min(1, 'Role name is required').max(100),
  /** May its users see clients' whole tax IDs (the reveal call, and exports unmasked)? Absent: false on create, unchanged on update. */
  revealTaxIds: z.boolean({ error: 'revealTaxIds must be true or false' }).optional(),
});

export interface Role {
  id: number;
  name: string;
  /** The role's users may reveal clients' whole tax IDs (issue 40); the Admin role has it by default. */
  revealTaxIds: boolean;
}

/** What identity announces of a role (`role.upserted`): others keep what they enforce of it. */
export type RoleUpsertedEvent = Role;


/**
 * GET /api/admin/tenant-migrations (platform administrators): the firms the services are
 * still migrating in the background since they started, after an upgrade (issue 45). A firm
 * listed answers 503 "being updated" in that service until its schema is current.
 */
export interface TenantMigrationsOverview {
  /** Short names of the firms still closed in at least one service. */
  pendingFirms: string[];
  /** Each service: firms found behind at its start and still closed; unreachable services are listed with `reachable: false`. */
  services: { service: string; reachable: boolean; behind: number; pending: number }[];
}
