import { useQuery } from '@tanstack/react-query';
import type { EntityType } from '@ledgerline/contracts/directory.contracts.ts';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import type { StoredUser } from './auth-storage.ts';
import { getOptional } from './optional-query.ts';

/** What a Client user's own pages need of their client: its name and whether it is a person or a business. */
export interface OwnClient {
  name?: string;
  entityType?: EntityType | null;
}

/**
 * A Client user's own client (their first accessible one, spec 000 §6), shared by the header's
 * line and the home's wording through the query cache. `pending` until both answers are in.
 */
export function useOwnClient(user: StoredUser, enabled = true): { pending: boolean; client: OwnClient | null } {
  const accessUrl = apiPath(`users/${user.id}/client-access`);
  const access = useQuery({ queryKey: [accessUrl], queryFn: ({ signal }) => getOptional<number[]>(accessUrl, signal), enabled });
  const clientId = access.data?.[0];
  const clientUrl = apiPath(`clients/${clientId}`);
  const client = useQuery({
    queryKey: [clientUrl],
    queryFn: ({ signal }) => getOptional<OwnClient>(clientUrl, signal),
    enabled: enabled && clientId !== undefined,
  });
  const pending = access.isPending || (clientId !== undefined && client.isPending);
  return { pending, client: client.data ?? null };
}

/** Whether the client is a person (a 1040 filer), whom the pages address as "you", not as a company. */
export const isIndividual = (client: OwnClient | null): boolean => client?.entityType === 'individual';
