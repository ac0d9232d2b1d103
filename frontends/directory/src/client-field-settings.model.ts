import {
  FEDERAL_ID_PRESETS,
  PHONE_PRESETS,
  STATE_ID_PRESETS,
  type ClientFieldSettingsInput,
  type FormatPreset,
  type PhoneCountry,
} from '@ledgerline/contracts/directory.contracts.ts';

export const PHONE_COUNTRY_OPTIONS: readonly { value: PhoneCountry; label: string }[] = [
  { value: 'US', label: 'United States' },
  { value: 'CA', label: 'Canada' },
  { value: 'IN', label: 'India' },
  { value: 'UK', label: 'United Kingdom' },
  { value: 'AU', label: 'Australia' },
];

/** Spec 000 §4: choosing a phone country overwrites the phone pattern and example with its preset. */
export function withPhoneCountry(values: ClientFieldSettingsInput, country: PhoneCountry): ClientFieldSettingsInput {
  const preset = PHONE_PRESETS[country];
  return { ...values, phoneCountry: country, phonePattern: preset.pattern, phoneExample: preset.example };
}

/** The identifier fields whose format can be picked from known presets. */
export type IdField = 'federalId' | 'stateId';

export const CUSTOM_FORMAT = 'CUSTOM';

interface FormatOption {
  value: string;
  label: string;
}

/** Known formats of each identifier, offered as shortcuts that fill pattern and example. */
export const ID_FORMATS: Readonly<Record<IdField, { presets: Readonly<Record<string, FormatPreset>>; options: readonly FormatOption[] }>> = {
  federalId: {
    presets: FEDERAL_ID_PRESETS,
    options: [
      { value: 'EIN', label: 'EIN — XX-XXXXXXX (United States)' },
      { value: 'PAN', label: 'PAN — ABCDE1234F (India)' },
      { value: CUSTOM_FORMAT, label: 'Custom pattern' },
    ],
  },
  stateId: {
    presets: STATE_ID_PRESETS,
    options: [
      { value: 'ANY', label: 'Any text' },
      { value: 'GST', label: 'GSTIN — 15 characters (India)' },
      { value: CUSTOM_FORMAT, label: 'Custom pattern' },
    ],
  },
};

/** Which known format a pattern is, or CUSTOM_FORMAT. */
export function formatOf(field: IdField, pattern: string): string {
  const match = Object.entries(ID_FORMATS[field].presets).find(([, preset]) => preset.pattern === pattern);
  return match?.[0] ?? CUSTOM_FORMAT;
}

/** Fills pattern and example from a known format; CUSTOM_FORMAT leaves them to be typed. */
export function withIdFormat(values: ClientFieldSettingsInput, field: IdField, format: string): ClientFieldSettingsInput {
  const preset = ID_FORMATS[field].presets[format];
  if (!preset) return values;
  return { ...values, [`${field}Pattern`]: preset.pattern, [`${field}Example`]: preset.example };
}

/** The ten fields of a settings response (the form edits those, not id or timestamps). */
export function settingsFormValues(settings: ClientFieldSettingsInput): ClientFieldSettingsInput {
  const { phoneLabel, phoneCountry, phonePattern, phoneExample, federalIdLabel, federalIdPattern, federalIdExample, stateIdLabel, stateIdPattern, stateIdExample } =
    settings;
  return { phoneLabel, phoneCountry, phonePattern, phoneExample, federalIdLabel, federalIdPattern, federalIdExample, stateIdLabel, stateIdPattern, stateIdExample };
}
