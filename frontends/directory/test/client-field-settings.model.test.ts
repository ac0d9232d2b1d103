import { describe, expect, it } from '@jest/globals';
import {
  clientFieldSettingsInputSchema,
  DEFAULT_CLIENT_FIELD_SETTINGS,
  PHONE_PRESETS,
  STATE_ID_PRESETS,
} from '@ledgerline/contracts/directory.contracts.ts';
import { validateForm } from '@ledgerline/ui/form-validation.ts';
import { CUSTOM_FORMAT, formatOf, settingsFormValues, withIdFormat, withPhoneCountry } from '../src/client-field-settings.model.ts';

describe('client field settings form', () => {
  it('overwrites phone pattern and example with the preset of the chosen country', () => {
    const edited = { ...DEFAULT_CLIENT_FIELD_SETTINGS, phonePattern: '^custom$', phoneExample: 'mine' };
    expect(withPhoneCountry(edited, 'IN')).toEqual({ ...edited, phoneCountry: 'IN', phonePattern: '^\\+91\\d{10}$', phoneExample: '+919876543210' });
    for (const country of ['US', 'CA', 'UK', 'AU'] as const) {
      expect(withPhoneCountry(edited, country)).toMatchObject({ phoneCountry: country, phonePattern: PHONE_PRESETS[country].pattern });
    }
    expect(new RegExp(withPhoneCountry(edited, 'UK').phonePattern).test('+4479111234567')).toBe(true);
    expect(new RegExp(withPhoneCountry(edited, 'AU').phonePattern).test('+61412345678')).toBe(true);
  });

  it('recognises known identifier formats and fills them in; custom leaves the pattern alone', () => {
    expect(formatOf('federalId', DEFAULT_CLIENT_FIELD_SETTINGS.federalIdPattern)).toBe('EIN');
    expect(formatOf('stateId', DEFAULT_CLIENT_FIELD_SETTINGS.stateIdPattern)).toBe('ANY');
    expect(formatOf('stateId', '^[0-9]+$')).toBe(CUSTOM_FORMAT);
    const pan = withIdFormat(DEFAULT_CLIENT_FIELD_SETTINGS, 'federalId', 'PAN');
    expect(pan).toMatchObject({ federalIdPattern: '^[A-Z]{5}[0-9]{4}[A-Z]$', federalIdExample: 'ABCDE1234F' });
    expect(formatOf('federalId', pan.federalIdPattern)).toBe('PAN');
    expect(withIdFormat(pan, 'stateId', 'GST')).toMatchObject({ stateIdPattern: STATE_ID_PRESETS.GST.pattern, stateIdExample: '22ABCDE1234F1Z5' });
    expect(withIdFormat(pan, 'federalId', CUSTOM_FORMAT)).toBe(pan);
  });

  it("requires all ten fields with '{Label} is required'", () => {
    const blank = Object.fromEntries(Object.keys(DEFAULT_CLIENT_FIELD_SETTINGS).map((key) => [key, ' ']));
    const result = validateForm(clientFieldSettingsInputSchema, blank);
    expect(result.ok).toBe(false);
    expect(result.ok ? {} : result.errors).toMatchObject({
      phoneLabel: 'Phone label is required',
      phoneCountry: 'Phone country is required',
      federalIdPattern: 'Federal ID pattern is required',
      stateIdExample: 'State ID example is required',
    });
    expect(Object.keys(result.ok ? {} : result.errors)).toHaveLength(10);
  });

  it('edits only the ten settings fields of a response', () => {
    const response = { id: 9, ...DEFAULT_CLIENT_FIELD_SETTINGS, createdAt: 'c', updatedAt: 'u' };
    expect(settingsFormValues(response)).toEqual(DEFAULT_CLIENT_FIELD_SETTINGS);
  });
});
