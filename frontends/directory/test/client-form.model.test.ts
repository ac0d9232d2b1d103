import { describe, expect, it } from '@jest/globals';
import {
  clientInputSchema,
  DEFAULT_CLIENT_FIELD_SETTINGS,
  FEDERAL_ID_PRESETS,
  STATE_ID_PRESETS,
  type Client,
  type ClientFieldSettings,
} from '@ledgerline/contracts/directory.contracts.ts';
import { validateForm } from '@ledgerline/ui/form-validation.ts';
import { clientFieldTexts, savedFieldRules } from '../src/client-field-settings.query.ts';
import { clientFormValues, newClientValues, type ClientFormValues } from '../src/client-form.model.ts';
import { withIdFormat, withPhoneCountry } from '../src/client-field-settings.model.ts';

const indian: ClientFieldSettings = {
  id: 4,
  ...withIdFormat(
    withIdFormat(withPhoneCountry({ ...DEFAULT_CLIENT_FIELD_SETTINGS, phoneLabel: 'Mobile', federalIdLabel: 'PAN', stateIdLabel: 'GSTIN' }, 'IN'), 'federalId', 'PAN'),
    'stateId',
    'GST',
  ),
  createdAt: '2024-01-01T00:00:00Z',
  updatedAt: '2024-01-01T00:00:00Z',
};
const unsaved: ClientFieldSettings = { id: null, ...DEFAULT_CLIENT_FIELD_SETTINGS, createdAt: null, updatedAt: null };

const valid: ClientFormValues = {
  ...newClientValues('2024-04-01'),
  name: 'Acme Traders',
  address: '12 MG Road, Pune',
  email: 'office@acme.in',
};

const check = (settings: ClientFieldSettings, values: Partial<ClientFormValues>) =>
  validateForm(clientInputSchema(savedFieldRules(settings)), { ...valid, ...values });

describe('client form', () => {
  it('starts a new client today with no employees and files on the server', () => {
    expect(newClientValues('2024-04-01')).toEqual({
      name: '', address: '', phone: '', federalId: '', stateId: '', email: '', employeeCount: 0, startDate: '2024-04-01', uploadDestination: 'server', jurisdiction: '', entityType: '',
    });
    expect(newClientValues().startDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it("resets to a client's values, reading phoneNumber when phone is missing", () => {
    const client = { id: 3, name: 'Beta', address: 'Main St 1', phone: '', phoneNumber: '(555)-123-4567', federalId: '12-3456789', stateId: 'S1', email: 'b@b.com', employeeCount: 7, startDate: '2023-02-03T00:00:00.000Z', uploadDestination: 'google_drive' } as Client;
    expect(clientFormValues(client)).toMatchObject({ phone: '(555)-123-4567', startDate: '2023-02-03', employeeCount: 7, uploadDestination: 'google_drive' });
  });

  it('uses the fallback rules and messages while the firm has saved no settings', () => {
    expect(savedFieldRules(unsaved)).toBeNull();
    expect(savedFieldRules(undefined)).toBeNull();
    const result = check(unsaved, { phone: '5551234567', federalId: '123456789', stateId: ' ' });
    expect(result).toEqual({
      ok: false,
      errors: { phone: 'Phone must be in format: (XXX)-XXX-XXXX', federalId: 'Federal ID must be in format: XX-XXXXXXX', stateId: 'State ID is required' },
    });
    expect(check(unsaved, { phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'ny-55' })).toMatchObject({ ok: true, data: { stateId: 'NY-55' } });
  });

  it("checks phone, PAN and GST against the firm's Indian settings with the spec's messages", () => {
    expect(savedFieldRules(indian)).toBe(indian);
    const result = check(indian, { phone: '98765', federalId: 'ABC123', stateId: '22ABCDE' });
    expect(result).toEqual({
      ok: false,
      errors: {
        phone: 'Mobile must be a valid Indian mobile number. Examples: +919876543210',
        federalId: `PAN must be a valid PAN number (5 letters + 4 numbers + 1 letter). Example: ${FEDERAL_ID_PRESETS.PAN.example}`,
        stateId: `GSTIN must be a valid 15-digit GST number. Example: ${STATE_ID_PRESETS.GST.example}`,
      },
    });
    expect(check(indian, { phone: '+919876543210', federalId: 'abcde1234f', stateId: '22abcde1234f1z5' })).toMatchObject({
      ok: true,
      data: { federalId: 'ABCDE1234F', stateId: '22ABCDE1234F1Z5' },
    });
  });

  it('checks name, address, email, employees and start date with the spec messages', () => {
    const result = check(unsaved, { name: 'A', address: 'Road', email: 'nope', employeeCount: -1, startDate: '', phone: '(555)-123-4567', federalId: '12-3456789', stateId: 'X' });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: 'Name must be at least 2 characters',
        address: 'Address must be at least 5 characters',
        email: 'Invalid email address',
        employeeCount: 'Employee count must be a positive number',
        startDate: 'Start date is required',
      },
    });
  });

  it('labels the firm-specific fields from the settings, the defaults until they load', () => {
    expect(clientFieldTexts(indian)).toMatchObject({ phoneLabel: 'Mobile', phoneExample: '+919876543210', federalIdLabel: 'PAN', stateIdLabel: 'GSTIN' });
    expect(clientFieldTexts(undefined)).toMatchObject({ phoneLabel: 'Phone Number', federalIdLabel: 'Federal ID', stateIdLabel: 'State ID', phoneExample: '(XXX)-XXX-XXXX' });
  });
});
