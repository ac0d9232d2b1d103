import { canReadClient, type AccessScope } from './access-scope.ts';

/**
 * Who may message whom inside a firm (README "Authorization", messaging rows): staff talk
 * to any staff; a Client user talks to the staff who serve their client (Admin and DTA
 * serve every client; other staff the clients in their list), and never to another Client
 * user. The rule is symmetric, so it also says whether two people may share a conversation.
 * Identity's people picker (GET /api/users) and the messaging service both apply it.
 */
export function mayMessage(a: AccessScope, b: AccessScope): boolean {
  if (a.isClient && b.isClient) return false;
  if (!a.isClient && !b.isClient) return true;
  const [client, staff] = a.isClient ? [a, b] : [b, a];
  const clientId = client.clients === 'all' ? undefined : client.clients[0];
  return clientId !== undefined && canReadClient(staff, clientId);
}
