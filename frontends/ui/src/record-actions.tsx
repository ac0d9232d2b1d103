import type { ReactNode } from 'react';
import { Button } from 'primereact/button';

export interface RecordActionsProps {
  /** What the record is, for screen readers: 'Edit {name}', 'Delete {name}'. */
  name: string;
  onEdit(): void;
  onDelete(): void;
  /** Further icon buttons, shown between edit and delete. */
  children?: ReactNode;
}

/** Edit and delete icon buttons of a table row or card, with any record-specific ones between. */
export function RecordActions({ name, onEdit, onDelete, children }: RecordActionsProps) {
  return (
    <div className="record-actions">
      <Button icon="pi pi-pencil" rounded text aria-label={`Edit ${name}`} tooltip="Edit" tooltipOptions={{ position: 'top' }} onClick={onEdit} />
      {children}
      <Button icon="pi pi-trash" rounded text severity="danger" aria-label={`Delete ${name}`} tooltip="Delete" tooltipOptions={{ position: 'top' }} onClick={onDelete} />
    </div>
  );
}
