import type { StoredUser } from './auth-storage.ts';
import { isIndividual, useOwnClient } from './own-client.ts';

/**
 * A Client user's organisation in the header (spec 000 "Shell", §6): their first accessible
 * client. Shows nothing until (or unless) the client directory answers.
 */
export function ClientOrgName({ user }: { user: StoredUser }) {
  const { pending, client } = useOwnClient(user);
  const name = client?.name;
  // While the answers are on their way the line is kept (an empty line of text): on a phone it is
  // a row of its own, and the page below would otherwise move down when the name comes.
  if (pending) return <span className="client-org-name" aria-hidden="true">{'\u200b'}</span>;
  if (!name) return null;
  return (
    <span className="client-org-name">
      <i className={isIndividual(client) ? 'pi pi-user' : 'pi pi-building'} aria-hidden="true" />
      {name}
    </span>
  );
}
