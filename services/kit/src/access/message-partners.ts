import { canReadClient, type AccessScope } from './access-scope.ts';

/**
 * Who may message whom inside a firm (docs/api/authorization.md, messaging rows): staff talk
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

/** A conversation's participant as the rules see them now. */
export interface ConversationMember {
  userId: number;
  /** Null: not judged (deleted, or not known to the read model yet). */
  scope: AccessScope | null;
  /** When their stored access last changed (ms since 1970); platform administrators, who never change, weigh first. */
  changedAtMs: number;
}

/**
 * Who of a conversation's participants may no longer take part in it, now that access was
 * changed after it began (docs/api/authorization.md, messaging rows): everyone in a conversation
 * reads everything in it, so every two who remain must still be allowed to talk. Of two who
 * may not, the one whose stored access changed later leaves: the CPA who lost the client, the
 * staff user demoted to Client, the Client user moved to another client. Members are weighed
 * oldest change first (ties: in the order given, i.e. joining order), each kept when allowed
 * to talk to everyone kept before them.
 */
export function membersWhoMustLeave(members: readonly ConversationMember[]): number[] {
  const kept: AccessScope[] = [];
  const leaving: number[] = [];
  for (const m of [...members].sort((a, b) => a.changedAtMs - b.changedAtMs)) {
    if (m.scope === null) continue;
    const scope = m.scope;
    if (kept.every((k) => mayMessage(k, scope))) kept.push(scope);
    else leaving.push(m.userId);
  }
  return leaving;
}
