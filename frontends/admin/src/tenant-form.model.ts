import { z } from 'zod';
import { companyInputSchema, userInputSchema, userPasswordSchema, type Company, type CompanyInput } from '@ledgerline/contracts/identity.contracts.ts';
import { FIRM_COUNTRIES, FIRM_COUNTRY_FACTS, firmCountrySchema, type FirmCountry } from '@ledgerline/contracts/firm-country.ts';
import { validateForm, type Validation } from '@ledgerline/ui/form-validation.ts';

export type UrlPattern = Company['urlPattern'];

export interface TenantFormValues {
  name: string;
  shortName: string;
  schemaName: string;
  urlPattern: UrlPattern;
  customDomain: string;
  customSubdomain: string;
  isActive: boolean;
  /** '' only for a firm from before countries (the create form asks for one). */
  country: FirmCountry | '';
  /** The firm's IANA zone; '' follows the platform's default. */
  timeZone: string;
  /** Create mode only: the firm's first Admin (all three, or none to add one later). */
  adminUsername: string;
  adminFullName: string;
  adminPassword: string;
}

/** Who first signs in to a new firm, as its Admin. */
export interface FirstAdmin { username: string; fullName: string; password: string }

export const URL_PATTERN_OPTIONS: readonly { label: string; value: UrlPattern }[] = [
  { label: 'Path (/shortname)', value: 'path' },
  { label: 'Subdomain', value: 'subdomain' },
  { label: 'Custom domain', value: 'domain' },
];

export const COUNTRY_OPTIONS: readonly { label: string; value: FirmCountry }[] = FIRM_COUNTRIES.map((value) => ({ label: `${FIRM_COUNTRY_FACTS[value].label} (${value})`, value }));

/**
 * Picking a country fills an empty time zone with the country's usual one (the firm's own
 * stays): a new firm starts on its own clocks, not the platform's UTC.
 */
export function withCountry(values: TenantFormValues, country: FirmCountry | ''): TenantFormValues {
  const timeZone = values.timeZone || (country ? FIRM_COUNTRY_FACTS[country].suggestedTimeZone : '');
  return { ...values, country, timeZone };
}

export const EMPTY_TENANT_FORM: TenantFormValues = {
  name: '',
  shortName: '',
  schemaName: '',
  urlPattern: 'path',
  customDomain: '',
  customSubdomain: '',
  isActive: true,
  country: '',
  timeZone: '',
  adminUsername: '',
  adminFullName: '',
  adminPassword: '',
};

export function tenantFormValues(company: Company): TenantFormValues {
  return {
    name: company.name,
    shortName: company.shortName,
    schemaName: company.schemaName,
    urlPattern: company.urlPattern,
    customDomain: company.customDomain ?? '',
    customSubdomain: company.customSubdomain ?? '',
    isActive: company.isActive,
    country: company.country ?? '',
    timeZone: company.timeZoneIsDefault ? '' : company.timeZone,
    adminUsername: '',
    adminFullName: '',
    adminPassword: '',
  };
}

/** Spec 000 §5: the short name input is lowercased and stripped to a-z and 0-9. */
export const normalizeShortName = (input: string): string => input.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Spec 000 §4: in create mode the schema name follows the short name; in edit mode it stays. */
export function withShortName(values: TenantFormValues, input: string, mode: 'create' | 'edit'): TenantFormValues {
  const shortName = normalizeShortName(input);
  return { ...values, shortName, schemaName: mode === 'create' ? shortName : values.schemaName };
}

// The API defaults a missing schema name; the form requires it (spec 000 §5).
const tenantFormSchema = companyInputSchema.extend({
  schemaName: z
    .string()
    .min(1, 'Schema name is required')
    .max(63)
    .regex(/^[a-z0-9_]+$/, 'Only lowercase letters, numbers, and underscores allowed'),
});

// A new firm names its country (its calendars, currency and formats follow it); an older firm may still have none.
const newTenantFormSchema = tenantFormSchema.extend({
  country: z.preprocess((v) => (v === '' ? undefined : v), firmCountrySchema.optional()).refine((v) => v !== undefined, 'Country is required'),
});

/** The form's empty choices are the API's nulls (no country; the platform's default zone). */
export function checkTenantForm(values: TenantFormValues, mode: 'create' | 'edit' = 'edit'): Validation<CompanyInput> {
  const input = { ...values, country: values.country || null, timeZone: values.timeZone || null };
  return mode === 'create' ? validateForm(newTenantFormSchema, { ...input, country: values.country }) : validateForm(tenantFormSchema, input);
}

// The users call's own rules and messages, under the form's field names.
const firstAdminSchema = z.object({
  adminUsername: userInputSchema.shape.username,
  adminFullName: userInputSchema.shape.fullName,
  adminPassword: userPasswordSchema,
}).transform((v): FirstAdmin => ({ username: v.adminUsername, fullName: v.adminFullName, password: v.adminPassword }));

/**
 * The first Admin is optional (a firm can get one later from its Users page), but once any
 * of its fields is filled in, all three must be valid.
 */
export function checkFirstAdmin(values: TenantFormValues): Validation<FirstAdmin | null> {
  if (!values.adminUsername.trim() && !values.adminFullName.trim() && !values.adminPassword) return { ok: true, data: null };
  return validateForm(firstAdminSchema, values);
}
