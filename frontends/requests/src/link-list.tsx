import { Button } from 'primereact/button';
import { Tag } from 'primereact/tag';
import type { RequestLink } from '@ledgerline/contracts/requests.contracts.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import type { linkState } from './request-view.ts';

const LINK_STATE = {
  live: ['Active', 'success'], expired: ['Expired', 'secondary'], revoked: ['Revoked', 'danger'], closed: ['Closed', 'secondary'], paused: ['Paused', 'warning'],
} as const;

/**
 * The links made for people without an account (a request's upload links, an organizer's
 * answer links): recipient, when made and until when, their state, and Revoke while they work.
 */
export function LinkList({ links, stateOf, onRevoke }: {
  links: readonly RequestLink[] | undefined;
  stateOf: (link: RequestLink) => ReturnType<typeof linkState>;
  onRevoke: (link: RequestLink) => void;
}) {
  return (
    <ul className="request-links__list">
      {(links ?? []).map((link) => {
        const state = stateOf(link);
        return (
          <li key={link.id} className={`request-link-${link.id}`}>
            <span>
              <strong>{link.email ?? 'No recipient'}</strong>
              <small>Made {formatDate(link.createdAt)} · expires {formatDate(link.expiresAt)}</small>
            </span>
            <Tag value={LINK_STATE[state][0]} severity={LINK_STATE[state][1]} />
            {(state === 'live' || state === 'paused') && (
              <Button label="Revoke" size="small" text severity="danger" aria-label={`Revoke link ${link.email ?? link.id}`} onClick={() => onRevoke(link)} />
            )}
          </li>
        );
      })}
      {links?.length === 0 && <li className="request-panel__hint">No links yet.</li>}
    </ul>
  );
}
