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
import {
  clientCalendarSummary, clientFormValues, FISCAL_YEAR_END_OPTIONS, fiscalYearEndLabel, newClientValues, REGISTRATIONS_BY_JURISDICTION, type ClientFormValues,
} from '../src/client-form.model.ts';
import { subdivisionLabel, subdivisionsOf } from '@ledgerline/ui/subdivisions.ts';
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
      fiscalYearEnd: '', state: '', registrations: null,
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

describe("the client's calendar fields (issue 39)", () => {
  it('offers each jurisdiction its own registrations and subdivisions, and month ends as year ends', () => {
    expect(REGISTRATIONS_BY_JURISDICTION.US).toEqual(['employer', 'payer_1099']);
    expect(REGISTRATIONS_BY_JURISDICTION.IN).toEqual(['gst', 'gst_monthly', 'gst_qrmp', 'tds']);
    expect(REGISTRATIONS_BY_JURISDICTION.AU).toContain('payg_instalments');
    expect(REGISTRATIONS_BY_JURISDICTION.CA).toContain('gst_hst');
    expect(subdivisionsOf('US').find((s) => s.code === 'US-NY')?.name).toBe('New York');
    expect(subdivisionsOf('IN').find((s) => s.code === 'IN-DL')?.name).toBe('Delhi');
    expect(subdivisionsOf('CA').find((s) => s.code === 'CA-ON')?.name).toBe('Ontario');
    expect(subdivisionsOf('AU').find((s) => s.code === 'AU-NSW')?.name).toBe('New South Wales');
    expect(subdivisionsOf('UK').map((s) => s.name)).toEqual(['England', 'Northern Ireland', 'Scotland', 'Wales']);
    // Every code the server accepts has a name to show.
    for (const j of ['US', 'CA', 'IN', 'UK', 'AU'] as const) expect(subdivisionsOf(j).filter((s) => s.name === s.code)).toEqual([]);
    expect(subdivisionLabel('US-NY')).toBe('New York (US-NY)');
    expect(FISCAL_YEAR_END_OPTIONS.map((o) => o.value)).toEqual(['01-31', '02-28', '03-31', '04-30', '05-31', '06-30', '07-31', '08-31', '09-30', '10-31', '11-30', '12-31']);
    expect(fiscalYearEndLabel('06-30')).toBe('30 Jun');
  });

  it("reads a client's year end, State and registrations into the form, and sums them up for its details", () => {
    const client = { name: 'Delaware Robotics Inc', entityType: 'c_corp', jurisdiction: 'US', fiscalYearEnd: '06-30', state: 'US-DE', registrations: ['employer'] } as unknown as Client;
    expect(clientFormValues(client)).toMatchObject({ fiscalYearEnd: '06-30', state: 'US-DE', registrations: ['employer'] });
    expect(newClientValues('2026-11-25')).toMatchObject({ fiscalYearEnd: '', state: '', registrations: null });
    expect(clientCalendarSummary(client, (t) => t.toUpperCase(), subdivisionLabel)).toBe('C_CORP · Delaware (US-DE) · year end 30 Jun · Employer (payroll)');
    expect(clientCalendarSummary({ ...client, registrations: null, state: null }, (t) => t, subdivisionLabel)).toBe('c_corp · year end 30 Jun');
  });
});
