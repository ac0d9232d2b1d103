import { useQuery } from '@tanstack/react-query';
import { apiPath } from '@ledgerline/ui/api-client.ts';
import type { StoredUser } from './auth-storage.ts';
import { getOptional } from '@ledgerline/ui/optional-query.ts';

/**
 * A Client user's organisation in the header (spec 000 "Shell", §6): their first accessible
 * client. Shows nothing until (or unless) the client directory answers.
 */
export function ClientOrgName({ user }: { user: StoredUser }) {
  const accessUrl = apiPath(`users/${user.id}/client-access`);
  const access = useQuery({ queryKey: [accessUrl], queryFn: ({ signal }) => getOptional<number[]>(accessUrl, signal) });
  const clientId = access.data?.[0];
  const clientUrl = apiPath(`clients/${clientId}`);
  const client = useQuery({
    queryKey: [clientUrl],
    queryFn: ({ signal }) => getOptional<{ name?: string }>(clientUrl, signal),
    enabled: clientId !== undefined,
  });
  const name = client.data?.name;
  // While the answers are on their way the line is kept (an empty line of text): on a phone it is
  // a row of its own, and the page below would otherwise move down when the name comes.
  if (access.isPending || (clientId !== undefined && client.isPending)) return <span className="client-org-name" aria-hidden="true">{'\u200b'}</span>;
  if (!name) return null;
  return (
    <span className="client-org-name">
      <i className="pi pi-building" aria-hidden="true" />
      {name}
    </span>
  );
}
