import type { ReactNode } from 'react';
import type { ChartData } from 'chart.js';
import { Skeleton } from 'primereact/skeleton';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { hasChartValues } from './chart-data.ts';
import { LazyChart, type LazyChartProps } from './lazy-chart.tsx';

export interface ChartPanelProps {
  title: string;
  type: LazyChartProps['type'];
  /** Undefined while the dashboard loads. */
  data: ChartData | undefined;
  options: object;
  /** Shown instead of an empty chart. */
  emptyText: string;
  height?: string;
  /** Spans the whole row of the dashboard grid. */
  wide?: boolean;
  children?: ReactNode;
}

/** A titled dashboard panel holding one chart, or a note when it would draw nothing. */
export function ChartPanel({ title, type, data, options, emptyText, height = '18rem', wide = false, children }: ChartPanelProps) {
  return (
    <section className={wide ? 'dashboard-panel dashboard-panel--wide' : 'dashboard-panel'} aria-label={title}>
      <h3 className="dashboard-panel__title">{title}</h3>
      {data === undefined ? (
        <Skeleton height={height} />
      ) : hasChartValues(data) ? (
        <LazyChart type={type} data={data} options={options} label={title} height={height} />
      ) : (
        <EmptyState icon="pi pi-chart-bar" text={emptyText} />
      )}
      {children}
    </section>
  );
}
