import { CLIENT_REGISTRATION_LABELS, type Client, type ClientJurisdiction, type ClientRegistration, type EntityType, type UploadDestination } from '@ledgerline/contracts/directory.contracts.ts';
import { todayCalendarDate } from '@ledgerline/ui/calendar-date.ts';

/** What the client form edits; checked with the contract's clientInputSchema before saving. */
export interface ClientFormValues {
  name: string;
  address: string;
  phone: string;
  federalId: string;
  stateId: string;
  email: string;
  employeeCount: number | null;
  /** YYYY-MM-DD */
  startDate: string;
  uploadDestination: UploadDestination;
  /** '' on a new client: the firm's country. */
  jurisdiction: ClientJurisdiction | '';
  /** '': not said (every calendar entry is offered). */
  entityType: EntityType | '';
  /** 'MM-DD'; '' on a new client: the jurisdiction's (IN 31 Mar, AU 30 Jun, else 31 Dec). */
  fiscalYearEnd: string;
  /** ISO 3166-2 ('US-NY'); '': not said. */
  state: string;
  /** null: not said (a business gets the registration-dependent entries, an individual none). */
  registrations: ClientRegistration[] | null;
}

export type ClientFormField = keyof ClientFormValues;

/** Spec 000 §5 defaults for a new client: start date today, no employees, files on the server. */
export function newClientValues(today = todayCalendarDate()): ClientFormValues {
  return { name: '', address: '', phone: '', federalId: '', stateId: '', email: '', employeeCount: 0, startDate: today, uploadDestination: 'server', jurisdiction: '', entityType: '', fiscalYearEnd: '', state: '', registrations: null };
}

/** The form reset to a client's values (phoneNumber is read when phone is missing, spec 000 §3). */
export function clientFormValues(client: Client): ClientFormValues {
  return {
    name: client.name,
    address: client.address ?? '',
    phone: client.phone || client.phoneNumber || '',
    federalId: client.federalId ?? '',
    stateId: client.stateId ?? '',
    email: client.email ?? '',
    employeeCount: client.employeeCount ?? 0,
    startDate: client.startDate?.slice(0, 10) ?? '',
    uploadDestination: client.uploadDestination ?? 'server',
    jurisdiction: client.jurisdiction ?? '',
    entityType: client.entityType ?? '',
    fiscalYearEnd: client.fiscalYearEnd ?? '',
    state: client.state ?? '',
    registrations: client.registrations ?? null,
  };
}

export const UPLOAD_DESTINATION_LABELS: Readonly<Record<UploadDestination, string>> = {
  server: 'Server',
  google_drive: 'Google Drive',
};

export const JURISDICTION_LABELS: Readonly<Record<ClientJurisdiction, string>> = {
  US: 'United States', CA: 'Canada', IN: 'India', UK: 'United Kingdom', AU: 'Australia',
};

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** '06-30' → '30 Jun'. */
export function fiscalYearEndLabel(mmdd: string | null | undefined): string {
  const match = /^(\d{2})-(\d{2})$/.exec(mmdd ?? '');
  return match ? `${Number(match[2])} ${MONTHS[Number(match[1]) - 1] ?? '?'}` : '';
}
/** The form's year-end choices: the last day of each month (a 52–53-week year is not offered). */
export const FISCAL_YEAR_END_OPTIONS = MONTHS.map((_, i) => {
  const last = new Date(2025, i + 1, 0).getDate();
  const value = `${String(i + 1).padStart(2, '0')}-${String(last).padStart(2, '0')}`;
  return { value, label: fiscalYearEndLabel(value) };
});

/** The registrations that mean something in each jurisdiction: the form offers only these. */
export const REGISTRATIONS_BY_JURISDICTION: Readonly<Record<ClientJurisdiction, readonly ClientRegistration[]>> = {
  US: ['employer', 'payer_1099'],
  CA: ['gst_hst', 'employer'],
  IN: ['gst', 'gst_monthly', 'gst_qrmp', 'tds'],
  UK: ['vat', 'employer'],
  AU: ['au_gst', 'payg_instalments', 'employer'],
};

/** The calendar facts of a client in one line, for its details: 'S corporation · New York (US-NY) · year end 31 Dec · Employer (payroll)'. */
export function clientCalendarSummary(client: Pick<Client, 'entityType' | 'state' | 'fiscalYearEnd' | 'registrations'>, entityTypeLabel: (t: EntityType) => string, stateLabel: (code: string) => string): string {
  const parts = [
    client.entityType ? entityTypeLabel(client.entityType) : null,
    client.state ? stateLabel(client.state) : null,
    client.fiscalYearEnd ? `year end ${fiscalYearEndLabel(client.fiscalYearEnd)}` : null,
    client.registrations === null || client.registrations === undefined ? null
      : client.registrations.length ? client.registrations.map((r) => CLIENT_REGISTRATION_LABELS[r] ?? r).join(', ') : 'no registrations',
  ];
  return parts.filter(Boolean).join(' · ');
}
