import { Tag } from 'primereact/tag';
import type { RequestItem } from '@ledgerline/contracts/requests.contracts.ts';
import { isReturned, itemStatusLabel, itemStatusSeverity } from './request-view.ts';

/** An item's title, whether it is required, its status, description and the comments on it. */
export function ItemHeading({ item }: { item: RequestItem }) {
  return (
    <>
      <div className="request-item__head">
        <h3 className="request-item__title">{item.title}</h3>
        <span className="request-item__tags">
          {!item.required && <Tag value="Optional" severity="secondary" />}
          <Tag value={itemStatusLabel(item)} severity={itemStatusSeverity(item)} />
        </span>
      </div>
      {item.description && <p className="request-item__description">{item.description}</p>}
      {item.clientComment && <p className="request-item__comment"><strong>Client comment:</strong> {item.clientComment}</p>}
      {item.staffComment && (
        <p className={isReturned(item) ? 'request-item__comment request-item__comment--returned' : 'request-item__comment'}>
          <strong>{isReturned(item) ? 'Returned:' : 'Firm comment:'}</strong> {item.staffComment}
        </p>
      )}
    </>
  );
}
