import { RE2JS } from 're2js';
import { z } from 'zod';
import { isCalendarDate } from './scalars.ts';
import { taxIdListSchema, TAX_ID_TYPES, type MaskedTaxId } from './tax-ids.ts';

/*
 * Directory API (clients, report types, client field settings, Google Drive, client
 * portal), spec 000 §3, §5, §7. The client form's rules depend on the firm's own field
 * settings, so the schema is built from them: the server validates with exactly the
 * rules and messages the UI shows.
 */

// ---------------------------------------------------------------- client field settings

export const PHONE_COUNTRIES = ['US', 'CA', 'IN', 'UK', 'AU'] as const;
export type PhoneCountry = (typeof PHONE_COUNTRIES)[number];

/**
 * Where a client files (DESIGN §8 "firm calendar"): its tax years and which statutory calendar fits.
 * The same codes as the phone countries; a client without one takes the firm's country (the
 * phone country of its client field settings, else US).
 */
export const CLIENT_JURISDICTIONS = PHONE_COUNTRIES;
export type ClientJurisdiction = PhoneCountry;
/** The legal form a client files as; calendar entries say which of these they apply to. */
export const ENTITY_TYPES = ['individual', 'sole_proprietor', 'partnership', 'c_corp', 's_corp', 'company', 'llp', 'trust'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];
export const ENTITY_TYPE_LABELS: Record<EntityType, string> = {
  individual: 'Individual', sole_proprietor: 'Sole proprietor', partnership: 'Partnership', c_corp: 'C corporation',
  s_corp: 'S corporation', company: 'Company', llp: 'LLP', trust: 'Trust',
};

/**
 * The day a client's financial year ends ("MM-DD") when the client has not said (issue 39):
 * India's and Australia's statutory years end 31 March and 30 June, the others' 31 December.
 */
export const DEFAULT_FISCAL_YEAR_END: Record<ClientJurisdiction, string> = { US: '12-31', CA: '12-31', UK: '12-31', IN: '03-31', AU: '06-30' };
export const defaultFiscalYearEnd = (jurisdiction: ClientJurisdiction): string => DEFAULT_FISCAL_YEAR_END[jurisdiction];
const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** "MM-DD" of a real day (29 February is not a year end: a 52–53-week year is out of scope). */
export const isMonthDay = (v: string): boolean => {
  const m = /^(\d{2})-(\d{2})$/.exec(v);
  return !!m && Number(m[1]) >= 1 && Number(m[1]) <= 12 && Number(m[2]) >= 1 && Number(m[2]) <= DAYS_IN_MONTH[Number(m[1]) - 1]!;
};

/**
 * The subdivisions a client may be in (ISO 3166-2), by jurisdiction. The UK uses GB's four
 * countries (England, Scotland, Wales, Northern Ireland): ISO names the kingdom GB, the portal UK.
 */
export const CLIENT_STATES: Record<ClientJurisdiction, readonly string[]> = {
  US: ['AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'DC', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME', 'MD', 'MA', 'MI', 'MN',
    'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA', 'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV',
    'WI', 'WY', 'AS', 'GU', 'MP', 'PR', 'UM', 'VI'].map((c) => `US-${c}`),
  IN: ['AN', 'AP', 'AR', 'AS', 'BR', 'CH', 'CG', 'DH', 'DL', 'GA', 'GJ', 'HR', 'HP', 'JK', 'JH', 'KA', 'KL', 'LA', 'LD', 'MP', 'MH', 'MN', 'ML', 'MZ',
    'NL', 'OD', 'PY', 'PB', 'RJ', 'SK', 'TN', 'TS', 'TR', 'UP', 'UK', 'WB'].map((c) => `IN-${c}`),
  CA: ['AB', 'BC', 'MB', 'NB', 'NL', 'NS', 'NT', 'NU', 'ON', 'PE', 'QC', 'SK', 'YT'].map((c) => `CA-${c}`),
  AU: ['ACT', 'NSW', 'NT', 'QLD', 'SA', 'TAS', 'VIC', 'WA'].map((c) => `AU-${c}`),
  UK: ['ENG', 'SCT', 'WLS', 'NIR'].map((c) => `GB-${c}`),
};
const ALL_CLIENT_STATES = Object.values(CLIENT_STATES).flat();
/** The jurisdiction a state code belongs to ('GB-…' is the UK's). */
export const jurisdictionOfState = (state: string): ClientJurisdiction | null =>
  (Object.keys(CLIENT_STATES) as ClientJurisdiction[]).find((j) => CLIENT_STATES[j].includes(state)) ?? null;

/**
 * What a client is registered for, as the statutory calendars' entries need it (issue 39):
 * India's GST (filing monthly, or quarterly under QRMP) and TDS; a UK VAT registration; an
 * employer (payroll returns anywhere); a US payer of 1099 income; Australia's GST and PAYG
 * instalments; Canada's GST/HST.
 */
export const CLIENT_REGISTRATIONS = ['gst', 'gst_monthly', 'gst_qrmp', 'tds', 'vat', 'employer', 'payer_1099', 'au_gst', 'payg_instalments', 'gst_hst'] as const;
export type ClientRegistration = (typeof CLIENT_REGISTRATIONS)[number];
export const CLIENT_REGISTRATION_LABELS: Record<ClientRegistration, string> = {
  gst: 'GST (India)', gst_monthly: 'GST, monthly returns (India)', gst_qrmp: 'GST, quarterly QRMP (India)', tds: 'TDS deductor (India)',
  vat: 'VAT (UK)', employer: 'Employer (payroll)', payer_1099: 'Pays 1099 income (US)', au_gst: 'GST (Australia)',
  payg_instalments: 'PAYG instalments (Australia)', gst_hst: 'GST/HST (Canada)',
};

export const CLIENT_FIELD_MESSAGES = {
  fiscalYearEnd: 'Fiscal year end must be a day of the year as MM-DD (e.g. 06-30)',
  state: 'State must be an ISO 3166-2 code such as US-NY, IN-DL, CA-ON, AU-NSW or GB-ENG',
  stateCountry: 'State must be in the client\'s jurisdiction',
  registrations: `Registrations must be a list of ${CLIENT_REGISTRATIONS.join(', ')}`,
} as const;

export interface FormatPreset {
  pattern: string;
  example: string;
  /** Completes '{label} must be a valid {description}.' */
  description: string;
}

/** Phone presets by country (spec §3); choosing a country overwrites pattern and example. */
export const PHONE_PRESETS: Record<PhoneCountry, FormatPreset> = {
  US: { pattern: '^\\(\\d{3}\\)-\\d{3}-\\d{4}$', example: '(555)-123-4567', description: 'US phone number' },
  CA: { pattern: '^\\(\\d{3}\\)-\\d{3}-\\d{4}$', example: '(555)-123-4567', description: 'Canadian phone number' },
  IN: { pattern: '^\\+91\\d{10}$', example: '+919876543210', description: 'Indian mobile number' },
  UK: { pattern: '^\\+44\\d{10,11}$', example: '+447911123456', description: 'UK phone number' },
  AU: { pattern: '^\\+61\\d{9}$', example: '+61412345678', description: 'Australian phone number' },
};

/** Known federal ID formats; any other pattern is a custom one. */
export const FEDERAL_ID_PRESETS = {
  EIN: { pattern: '^\\d{2}-\\d{7}$', example: 'XX-XXXXXXX', description: 'federal ID (XX-XXXXXXX)' },
  PAN: { pattern: '^[A-Z]{5}[0-9]{4}[A-Z]$', example: 'ABCDE1234F', description: 'PAN number (5 letters + 4 numbers + 1 letter)' },
} as const satisfies Record<string, FormatPreset>;

/** Known state ID formats; ANY accepts any non-empty text. */
export const STATE_ID_PRESETS = {
  ANY: { pattern: '^.+$', example: 'State ID number', description: 'state ID' },
  GST: { pattern: '^[0-9]{2}[A-Z]{5}[0-9]{4}[A-Z][1-9A-Z]Z[0-9A-Z]$', example: '22ABCDE1234F1Z5', description: '15-digit GST number' },
} as const satisfies Record<string, FormatPreset>;

/** The ten settings fields in form order, with the label used in '{Label} is required'. */
export const CLIENT_FIELD_SETTING_LABELS = {
  phoneLabel: 'Phone label',
  phoneCountry: 'Phone country',
  phonePattern: 'Phone pattern',
  phoneExample: 'Phone example',
  federalIdLabel: 'Federal ID label',
  federalIdPattern: 'Federal ID pattern',
  federalIdExample: 'Federal ID example',
  stateIdLabel: 'State ID label',
  stateIdPattern: 'State ID pattern',
  stateIdExample: 'State ID example',
} as const;
export type ClientFieldSettingKey = keyof typeof CLIENT_FIELD_SETTING_LABELS;

/**
 * A firm's own pattern, compiled for RE2's linear-time engine: the patterns are typed by
 * firm admins and run on every client save, and a backtracking engine lets one pattern
 * like `^(a+)+$` stall the whole server. RE2 has no lookaround or backreferences; such a
 * pattern is refused when saved. Tests like RegExp#test: a match anywhere in the value.
 */
export function compileFirmPattern(pattern: string): { test(value: string): boolean } | null {
  try {
    const re = RE2JS.compile(pattern);
    return { test: (value) => re.matcher(value).find() };
  } catch {
    return null;
  }
}

const required = (key: ClientFieldSettingKey, max: number) => {
  const message = `${CLIENT_FIELD_SETTING_LABELS[key]} is required`;
  return z.string({ error: message }).trim().min(1, message).max(max);
};
// Patterns are typed by firm admins and run on every client save: keep them short.
const pattern = (key: ClientFieldSettingKey) => required(key, 200)
  .refine((p) => compileFirmPattern(p) !== null, `${CLIENT_FIELD_SETTING_LABELS[key]} is not a valid regular expression (lookarounds and backreferences are not supported)`);

/** Body of POST and PUT /api/client-field-settings: all ten fields required (spec §5). */
export const clientFieldSettingsInputSchema = z.object({
  phoneLabel: required('phoneLabel', 60),
  phoneCountry: required('phoneCountry', 2).pipe(z.enum(PHONE_COUNTRIES, { error: `Phone country must be one of ${PHONE_COUNTRIES.join(', ')}` })),
  phonePattern: pattern('phonePattern'),
  phoneExample: required('phoneExample', 100),
  federalIdLabel: required('federalIdLabel', 60),
  federalIdPattern: pattern('federalIdPattern'),
  federalIdExample: required('federalIdExample', 100),
  stateIdLabel: required('stateIdLabel', 60),
  stateIdPattern: pattern('stateIdPattern'),
  stateIdExample: required('stateIdExample', 100),
});
export type ClientFieldSettingsInput = z.infer<typeof clientFieldSettingsInputSchema>;

export interface ClientFieldSettings extends ClientFieldSettingsInput {
  /** null while the firm has saved none (the defaults are returned). */
  id: number | null;
  createdAt: string | null;
  updatedAt: string | null;
}

/** Spec §3 defaults, returned by GET until the firm saves its own. */
export const DEFAULT_CLIENT_FIELD_SETTINGS: ClientFieldSettingsInput = {
  phoneLabel: 'Phone Number',
  phoneCountry: 'US',
  phonePattern: PHONE_PRESETS.US.pattern,
  phoneExample: '(XXX)-XXX-XXXX',
  federalIdLabel: 'Federal ID',
  federalIdPattern: FEDERAL_ID_PRESETS.EIN.pattern,
  federalIdExample: FEDERAL_ID_PRESETS.EIN.example,
  stateIdLabel: 'State ID',
  stateIdPattern: STATE_ID_PRESETS.ANY.pattern,
  stateIdExample: STATE_ID_PRESETS.ANY.example,
};

// ---------------------------------------------------------------- clients

export const UPLOAD_DESTINATIONS = ['server', 'google_drive'] as const;
export type UploadDestination = (typeof UPLOAD_DESTINATIONS)[number];

/** Today as YYYY-MM-DD (the form's and the server's default start date). */
export const todayIsoDate = (): string => new Date().toISOString().slice(0, 10);

type FieldKind = 'phone' | 'federalId' | 'stateId';

/**
 * The message for a value that does not match a settings pattern: a known preset
 * describes itself ('Phone must be a valid Indian mobile number. Examples: +91…'); the
 * any-text state ID only needs a value; a custom pattern shows its example.
 */
export function formatRuleMessage(kind: FieldKind, label: string, pattern: string, example: string, country?: PhoneCountry): string {
  if (kind === 'stateId' && pattern === STATE_ID_PRESETS.ANY.pattern) return `${label} is required`;
  // US and CA share a pattern: the chosen country names the description.
  const presets: readonly FormatPreset[] = kind === 'phone' ? [...(country ? [PHONE_PRESETS[country]] : []), ...Object.values(PHONE_PRESETS)]
    : Object.values(kind === 'federalId' ? FEDERAL_ID_PRESETS : STATE_ID_PRESETS);
  const preset = presets.find((p) => p.pattern === pattern);
  if (!preset) return `${label} must match the format ${example}`;
  return `${label} must be a valid ${preset.description}. ${kind === 'phone' ? 'Examples' : 'Example'}: ${example}`;
}

interface FieldRule { pattern: { test(value: string): boolean }; message: string }

/** Spec §5 fallback rules when the firm has no field settings. */
const FALLBACK_RULES: Record<FieldKind, FieldRule> = {
  phone: { pattern: /^\(\d{3}\)-\d{3}-\d{4}$/, message: 'Phone must be in format: (XXX)-XXX-XXXX' },
  federalId: { pattern: /^\d{2}-\d{7}$/, message: 'Federal ID must be in format: XX-XXXXXXX' },
  stateId: { pattern: /^.+$/, message: 'State ID is required' },
};

function rulesOf(settings: ClientFieldSettingsInput | null): Record<FieldKind, FieldRule> {
  if (!settings) return FALLBACK_RULES;
  const rule = (kind: FieldKind, label: string, pattern: string, message: string): FieldRule => {
    const compiled = compileFirmPattern(pattern);
    // A pattern saved before the linear-time engine, that it cannot run: no value passes
    // until an Admin saves a supported one (failing closed, never a server error).
    return compiled ? { pattern: compiled, message } : { pattern: { test: () => false }, message: `${label} cannot be checked: an Admin must update its pattern in Settings` };
  };
  return {
    phone: rule('phone', settings.phoneLabel, settings.phonePattern, formatRuleMessage('phone', settings.phoneLabel, settings.phonePattern, settings.phoneExample, settings.phoneCountry)),
    federalId: rule('federalId', settings.federalIdLabel, settings.federalIdPattern, formatRuleMessage('federalId', settings.federalIdLabel, settings.federalIdPattern, settings.federalIdExample)),
    stateId: rule('stateId', settings.stateIdLabel, settings.stateIdPattern, formatRuleMessage('stateId', settings.stateIdLabel, settings.stateIdPattern, settings.stateIdExample)),
  };
}

const formatted = (rule: FieldRule, upperCase: boolean) =>
  z.string({ error: rule.message }).trim().max(100, rule.message)
    .transform((v) => (upperCase ? v.toUpperCase() : v))
    .refine((v) => v.length > 0 && rule.pattern.test(v), rule.message);

const isoDate = z.union([z.string(), z.date()], { error: 'Start date is required' })
  .transform((v) => (v instanceof Date ? v.toISOString() : v.trim()).slice(0, 10))
  .refine((v) => v.length > 0, 'Start date is required')
  .refine(isCalendarDate, 'Start date must be a valid date (YYYY-MM-DD)');

/**
 * Body of POST /api/clients and PUT /api/clients/:id, built from the firm's field
 * settings (null = none saved: the fallback rules). `phone` and `phoneNumber` are both
 * accepted (the spec's UI reads both); the result carries `phone`.
 */
export function clientInputSchema(settings: ClientFieldSettingsInput | null) {
  const rules = rulesOf(settings);
  return z.preprocess(
    (raw) => {
      if (!raw || typeof raw !== 'object') return raw;
      const { phoneNumber, ...rest } = raw as Record<string, unknown>;
      return { ...rest, phone: rest.phone ?? phoneNumber };
    },
    z.object({
      name: z.string({ error: 'Name must be at least 2 characters' }).trim().min(2, 'Name must be at least 2 characters').max(200),
      address: z.string({ error: 'Address must be at least 5 characters' }).trim().min(5, 'Address must be at least 5 characters').max(500),
      phone: formatted(rules.phone, false),
      federalId: formatted(rules.federalId, true),
      stateId: formatted(rules.stateId, true),
      email: z.string({ error: 'Invalid email address' }).trim().max(254).pipe(z.email('Invalid email address')),
      employeeCount: z.coerce.number({ error: 'Employee count must be a positive number' })
        .int('Employee count must be a whole number').min(0, 'Employee count must be a positive number').max(10_000_000).default(0),
      startDate: isoDate.optional().transform((v) => v ?? todayIsoDate()),
      uploadDestination: z.enum(UPLOAD_DESTINATIONS, { error: 'Upload destination must be server or google_drive' }).nullish()
        .transform((v) => v ?? 'server'),
      /** Absent or empty: on create the firm's country, on update the client's own (the service fills it in). */
      jurisdiction: z.preprocess((v) => (v === '' || v === null ? undefined : v),
        z.enum(CLIENT_JURISDICTIONS, { error: `Jurisdiction must be one of ${CLIENT_JURISDICTIONS.join(', ')}` }).optional()),
      /** null or empty: none said; absent: none on create, unchanged on update. */
      entityType: z.preprocess((v) => (v === '' ? null : v),
        z.enum(ENTITY_TYPES, { error: `Entity type must be one of ${ENTITY_TYPES.join(', ')}` }).nullish()),
      /** "MM-DD"; null or empty: the jurisdiction's default (DEFAULT_FISCAL_YEAR_END); absent: that on create, unchanged on update. */
      fiscalYearEnd: z.preprocess((v) => (v === '' ? null : v),
        z.string({ error: CLIENT_FIELD_MESSAGES.fiscalYearEnd }).trim().refine(isMonthDay, CLIENT_FIELD_MESSAGES.fiscalYearEnd).nullish()),
      /** ISO 3166-2 ("US-NY"); its country must be the client's jurisdiction. null or empty: none; absent: none on create, unchanged on update. */
      state: z.preprocess((v) => (v === '' ? null : typeof v === 'string' ? v.trim().toUpperCase() : v),
        z.string({ error: CLIENT_FIELD_MESSAGES.state }).refine((v) => ALL_CLIENT_STATES.includes(v), CLIENT_FIELD_MESSAGES.state).nullish()),
      /** null: not said; a list (duplicates dropped, in CLIENT_REGISTRATIONS order); absent: null on create, unchanged on update. */
      registrations: z.array(z.enum(CLIENT_REGISTRATIONS, { error: CLIENT_FIELD_MESSAGES.registrations }), { error: CLIENT_FIELD_MESSAGES.registrations })
        .max(CLIENT_REGISTRATIONS.length * 2, CLIENT_FIELD_MESSAGES.registrations).nullish()
        .transform((v) => (v ? CLIENT_REGISTRATIONS.filter((r) => v.includes(r)) : v)),
      /** Typed tax IDs (tax-ids.ts), each of the client's jurisdiction (the service checks that); absent: none on create, unchanged on update. */
      taxIds: taxIdListSchema.optional(),
    }).superRefine((c, ctx) => {
      if (c.state && c.jurisdiction && jurisdictionOfState(c.state) !== c.jurisdiction) {
        ctx.addIssue({ code: 'custom', path: ['state'], message: CLIENT_FIELD_MESSAGES.stateCountry });
      }
    }),
  );
}
export type ClientInput = z.output<ReturnType<typeof clientInputSchema>>;

/**
 * The client body's shape for the API docs only: the server applies
 * `clientInputSchema(the firm's settings)`, whose rules depend on the firm.
 */
export const clientPayloadSchema = z.looseObject({
  name: z.unknown().optional().describe('text, at least 2 characters'),
  address: z.unknown().optional().describe('text, at least 5 characters'),
  phone: z.unknown().optional().describe('matches the firm\'s phone pattern (default (XXX)-XXX-XXXX); phoneNumber is accepted too'),
  federalId: z.unknown().optional().describe('matches the firm\'s federal ID pattern (default XX-XXXXXXX); upper-cased'),
  stateId: z.unknown().optional().describe('matches the firm\'s state ID pattern (default: any text); upper-cased'),
  email: z.unknown().optional().describe('email address'),
  employeeCount: z.unknown().optional().describe('integer ≥ 0, default 0'),
  startDate: z.unknown().optional().describe('YYYY-MM-DD, default today'),
  uploadDestination: z.unknown().optional().describe('server (default) or google_drive'),
  jurisdiction: z.unknown().optional().describe(`one of ${CLIENT_JURISDICTIONS.join(', ')}; default the firm's country`),
  entityType: z.unknown().optional().describe(`one of ${ENTITY_TYPES.join(', ')}, or none`),
  fiscalYearEnd: z.unknown().optional().describe('MM-DD; default the jurisdiction\'s (IN 03-31, AU 06-30, else 12-31)'),
  state: z.unknown().optional().describe('ISO 3166-2 code in the client\'s jurisdiction (US-NY, IN-DL, CA-ON, AU-NSW, GB-ENG), or none'),
  registrations: z.unknown().optional().describe(`list of ${CLIENT_REGISTRATIONS.join(', ')}; null: not said`),
  taxIds: z.unknown().optional().describe(`list of { type, value }, type one of ${TAX_ID_TYPES.join(', ')} of the client's jurisdiction, one per type; checked by format and check digit`),
});

export interface Client {
  id: number;
  name: string;
  address: string;
  phone: string;
  /** Same as phone: the spec's UI reads either. */
  phoneNumber: string;
  federalId: string;
  stateId: string;
  email: string;
  employeeCount: number;
  /** YYYY-MM-DD */
  startDate: string;
  uploadDestination: UploadDestination;
  /** Whether Google Drive is connected for this client (never the tokens themselves). */
  googleDriveConfigured: boolean;
  jurisdiction: ClientJurisdiction;
  /** null: not said (every calendar entry fits). */
  entityType: EntityType | null;
  /** "MM-DD": the day its financial year ends, the jurisdiction's default when not said. */
  fiscalYearEnd: string;
  /** ISO 3166-2 subdivision ("US-NY", "IN-DL", "GB-ENG"), or null. */
  state: string | null;
  /** null: not said (calendar entries needing one are pre-selected for businesses only). */
  registrations: ClientRegistration[] | null;
  /** Typed tax IDs, the last four characters only (GET /api/clients/{id}/tax-ids reveals them). */
  taxIds: MaskedTaxId[];
  createdAt: string;
  updatedAt: string;
}

/** GET /api/clients?search= — case-insensitive substring over name, email, phone, federalId, stateId, address. */
export const clientSearchQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
});

// ---------------------------------------------------------------- report types

export const reportTypeInputSchema = z.object({
  name: z.string({ error: 'Report type name is required' }).trim().min(1, 'Report type name is required').max(200),
  description: z.string().trim().max(2000).nullish().transform((v) => (v ? v : null)),
});
export type ReportTypeInput = z.infer<typeof reportTypeInputSchema>;

export interface ReportType {
  id: number;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
  /** In lists: how many stored files use it (while any do, it cannot be deleted). */
  fileCount?: number;
}

// ---------------------------------------------------------------- Google Drive

export const googleCredentialsInputSchema = z.object({
  clientId: z.string({ error: 'Please provide both Client ID and Client Secret' }).trim()
    .min(1, 'Please provide both Client ID and Client Secret').max(500),
  clientSecret: z.string({ error: 'Please provide both Client ID and Client Secret' }).trim()
    .min(1, 'Please provide both Client ID and Client Secret').max(500),
});
export type GoogleCredentialsInput = z.infer<typeof googleCredentialsInputSchema>;

/** credentials saved → OAuth connected → Drive folder created (spec §4). */
export interface GoogleDriveStatus {
  hasCredentials: boolean;
  hasTokens: boolean;
  isSetup: boolean;
}

export interface GoogleAuthUrl {
  authUrl: string;
}

/** Query of the public OAuth callback GET /api/auth/google/callback/:clientId. */
export const googleCallbackQuerySchema = z.object({
  tenant: z.string().max(63).optional(),
  code: z.string().max(2000).optional(),
  state: z.string().max(2000).optional(),
  error: z.string().max(500).optional(),
});

/** Query value the callback redirects the browser to: /{tenant}/clients?google-drive-setup=success|error&message=… */
export const GOOGLE_DRIVE_SETUP_PARAM = 'google-drive-setup';

// ---------------------------------------------------------------- Google Drive access for other services

/**
 * Internal call on the directory's service port (never routed by the gateway): a
 * short-lived Google access token and the client's Drive folder, so the files service
 * uploads and reads documents without ever holding the sealed refresh token. Answered
 * for the files service's signed assertion only (it checks its own caller's reach first).
 */
export const driveAccessPath = (clientId: number | string): string => `/internal/clients/${clientId}/google-drive/access`;
/** Header carrying a service assertion: a signed token (key purpose below) binding `{ t: tenant, c: clientId }`. */
export const DRIVE_ACCESS_ASSERTION_HEADER = 'x-portal-drive-assertion';
export const DRIVE_ACCESS_KEY_PURPOSE = 'google-drive-access';
export interface DriveAccessAssertion extends Record<string, unknown> { t: string; c: number }

export interface DriveAccess {
  accessToken: string;
  /** ISO time the access token stops working. */
  expiresAt: string;
  folderId: string;
}

/** 409 when a client's uploads go to Google Drive but its Drive is not connected. */
export const DRIVE_NOT_CONFIGURED = 'Google Drive is selected for this client but not yet configured.';

// ---------------------------------------------------------------- public client portal

export const clientPortalQuerySchema = z.object({
  token: z.string().max(500).optional(),
});

/** GET /api/{tenant}/clients/:id/portal?token= (public, signed link). */
export interface ClientPortalData {
  name: string;
  uploadDestination: UploadDestination;
  /** Replaces the spec's googleDriveRefreshToken: presence, never the token. */
  googleDriveConfigured: boolean;
}

/** GET /api/clients/:id/portal-link (Admin): a path to put after the origin. */
export interface ClientPortalLink {
  url: string;
  expiresAt: string;
}

// ---------------------------------------------------------------- events

export const CLIENT_UPSERTED = 'client.upserted';
export const CLIENT_DELETED = 'client.deleted';
export const REPORT_TYPE_UPSERTED = 'report-type.upserted';
export const REPORT_TYPE_DELETED = 'report-type.deleted';

/** `client.upserted` payload (other services keep client names in read models). */
export type ClientEvent = Pick<Client, 'id' | 'name' | 'uploadDestination' | 'googleDriveConfigured' | 'jurisdiction' | 'entityType' | 'fiscalYearEnd' | 'state' | 'registrations'>;
/**
 * Many clients at once (a chunk of an import, up to 250): each read model takes them in with
 * one write instead of one event, inbox row and statement per client. Same rules as
 * `client.upserted` for each of them, all with the event's time.
 */
export const CLIENTS_UPSERTED = 'clients.upserted';
export interface ClientsUpsertedEvent { clients: ClientEvent[] }
/** Whole tax IDs were shown to a user (GET /api/clients/{id}/tax-ids): identity records a security event. */
export const CLIENT_TAX_IDS_REVEALED = 'client.tax-ids-revealed';
export interface ClientTaxIdsRevealedEvent { clientId: number; clientName: string; userId: number | null; types: string[] }
/** `client.deleted` payload: services drop that client's data and access entries. */
export interface ClientDeletedEvent { id: number; name: string }
/** `report-type.upserted` / `report-type.deleted` payloads. */
export type ReportTypeEvent = Pick<ReportType, 'id' | 'name'>;
