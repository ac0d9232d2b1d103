import type { ReactNode } from 'react';
import { Button } from 'primereact/button';

export interface RecordActionsProps {
  /** What the record is, for screen readers: 'Edit {name}', 'Delete {name}'. */
  name: string;
  /** Left out when the user may not edit this record (the button is then not offered). */
  onEdit?: () => void;
  /** Left out when the user may not delete this record. */
  onDelete?: () => void;
  /** Further icon buttons, shown between edit and delete. */
  children?: ReactNode;
}

/** Edit and delete icon buttons of a table row or card, with any record-specific ones between. */
export function RecordActions({ name, onEdit, onDelete, children }: RecordActionsProps) {
  if (!onEdit && !onDelete && !children) return null;
  return (
    <div className="record-actions">
      {onEdit && <Button icon="pi pi-pencil" rounded text aria-label={`Edit ${name}`} tooltip="Edit" tooltipOptions={{ position: 'top' }} onClick={onEdit} />}
      {children}
      {onDelete && (
        <Button icon="pi pi-trash" rounded text severity="danger" aria-label={`Delete ${name}`} tooltip="Delete" tooltipOptions={{ position: 'top' }} onClick={onDelete} />
      )}
    </div>
  );
}
