import type { Client, ClientJurisdiction, EntityType, UploadDestination } from '@ledgerline/contracts/directory.contracts.ts';
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
}

export type ClientFormField = keyof ClientFormValues;

/** Spec 000 §5 defaults for a new client: start date today, no employees, files on the server. */
export function newClientValues(today = todayCalendarDate()): ClientFormValues {
  return { name: '', address: '', phone: '', federalId: '', stateId: '', email: '', employeeCount: 0, startDate: today, uploadDestination: 'server', jurisdiction: '', entityType: '' };
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
  };
}

export const UPLOAD_DESTINATION_LABELS: Readonly<Record<UploadDestination, string>> = {
  server: 'Server',
  google_drive: 'Google Drive',
};

export const JURISDICTION_LABELS: Readonly<Record<ClientJurisdiction, string>> = {
  US: 'United States', CA: 'Canada', IN: 'India', UK: 'United Kingdom', AU: 'Australia',
};
