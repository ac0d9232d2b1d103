import { Dropdown } from 'primereact/dropdown';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';

/** Value of the 'All Clients' entry. */
export const ALL_CLIENTS = 0;

export interface ClientPickerProps {
  inputId: string;
  clients: readonly Pick<Client, 'id' | 'name'>[] | undefined;
  value: number | null;
  onChange(clientId: number | null): void;
  /** Offer 'All Clients' as the first entry (the file panel and firm documents). */
  allClients?: boolean;
  loading?: boolean;
  placeholder?: string;
}

/** A client dropdown with a search box ('No client found.' when nothing matches). */
export function ClientPicker({ inputId, clients, value, onChange, allClients = false, loading = false, placeholder = 'Select a client' }: ClientPickerProps) {
  const options = [
    ...(allClients ? [{ label: 'All Clients', value: ALL_CLIENTS }] : []),
    ...(clients ?? []).map((client) => ({ label: client.name, value: client.id })),
  ];
  return (
    <Dropdown
      inputId={inputId}
      value={value ?? (allClients ? ALL_CLIENTS : null)}
      options={options}
      onChange={(event) => onChange(event.value === ALL_CLIENTS || event.value === undefined ? null : (event.value as number))}
      filter
      filterPlaceholder="Search clients"
      emptyFilterMessage="No client found."
      emptyMessage="No client found."
      placeholder={placeholder}
      showClear={!allClients && value !== null}
      loading={loading}
      className="client-picker"
    />
  );
}
