import { useQuery } from '@tanstack/react-query';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { apiJson } from '@ledgerline/ui/api-client.ts';
import { isClientRole, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { clientAccessPath, clientPath, clientsPath } from './directory.api.ts';

/**
 * The clients whose details a user may read (spec 000 §6). A Client user reads their
 * client-access list and their own client, its first entry; staff read the clients list,
 * which the server narrows to a CPA's access list.
 */
export function useAccessibleClients(user: StoredUser) {
  const ownClient = useQuery<Client[]>({
    queryKey: [clientAccessPath(user.id), 'own-client'],
    queryFn: async ({ signal }) => {
      const ids = await apiJson<number[] | null>('GET', clientAccessPath(user.id), undefined, { signal });
      const own = ids?.[0];
      return own === undefined ? [] : [await apiJson<Client>('GET', clientPath(own), undefined, { signal })];
    },
    enabled: isClientRole(user.role),
  });
  // Staff use the generic query (GET on the key's URL), sharing its cache with Client Management.
  const clientsList = useQuery<Client[]>({ queryKey: [clientsPath()], enabled: !isClientRole(user.role) });
  return isClientRole(user.role) ? ownClient : clientsList;
}
