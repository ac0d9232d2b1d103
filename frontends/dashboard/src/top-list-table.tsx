import type { ReactNode } from 'react';
import { Button } from 'primereact/button';
import { Column } from 'primereact/column';
import { DataTable } from 'primereact/datatable';

export interface TopListTableProps<T extends object> {
  rows: readonly T[] | undefined;
  dataKey: keyof T & string;
  emptyText: string;
  /** The table's <Column> elements. */
  children: ReactNode;
  /** Rows that open a details dialog: a click on the row or on its details button. */
  details?: { label: (row: T) => string; open: (row: T) => void };
}

/** A ranked list beside its chart (top clients, files, users), loading as the dashboard loads. */
export function TopListTable<T extends object>({ rows, dataKey, emptyText, children, details }: TopListTableProps<T>) {
  return (
    <DataTable
      value={(rows ?? []) as T[]}
      dataKey={dataKey}
      loading={rows === undefined}
      emptyMessage={emptyText}
      size="small"
      stripedRows
      className={details ? 'top-list top-list--clickable' : 'top-list'}
      onRowClick={details ? (event) => details.open(event.data as T) : undefined}
    >
      {children}
      {details && (
        <Column
          header="Details"
          className="top-list__details"
          body={(row: T) => (
            <Button
              icon="pi pi-chart-line"
              rounded
              text
              aria-label={details.label(row)}
              tooltip="Details"
              tooltipOptions={{ position: 'top' }}
              onClick={(event) => {
                // The row's own click would open the dialog a second time.
                event.stopPropagation();
                details.open(row);
              }}
            />
          )}
        />
      )}
    </DataTable>
  );
}
