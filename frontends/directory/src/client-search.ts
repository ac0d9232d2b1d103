import type { Client } from '@ledgerline/contracts/directory.contracts.ts';

/** The fields the search box looks in (spec 000 §2 "Client Management"). */
const SEARCHED_FIELDS = ['name', 'email', 'phone', 'phoneNumber', 'federalId', 'stateId', 'address'] as const;

type Searchable = Partial<Pick<Client, (typeof SEARCHED_FIELDS)[number]>>;

/** Case-insensitive substring match; a blank term keeps every client. */
export function filterClients<T extends Searchable>(clients: readonly T[], term: string): T[] {
  const needle = term.trim().toLowerCase();
  if (!needle) return [...clients];
  return clients.filter((client) => SEARCHED_FIELDS.some((field) => client[field]?.toLowerCase().includes(needle)));
}

/** The table's empty text: nothing at all yet, or nothing that matches. */
export function emptyClientsMessage(term: string): string {
  return term.trim() ? 'No clients match your search criteria.' : 'No clients found. Add a client to get started.';
}
